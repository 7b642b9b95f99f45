import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { APP_STATUSES, type AppStatus } from '../bindings/app-binding.entity.js';

export class SetAppStatusDto {
  @ApiProperty({
    enum: APP_STATUSES,
    description: "suspended: the merchant's backchannel requests for this app answer unknown_user_id; active again reactivates it",
  })
  @IsIn(APP_STATUSES)
  status: AppStatus;
}

export class AppBindingDto {
  @ApiProperty({ description: 'id of the binding (the audit trail names it)', example: '4b0f3c0e-1d7a-4c53-9d4e-0f1a2b3c4d5e' }) id: string;
  @ApiProperty() client_id: string;
  @ApiProperty({ example: 'app-3f9c2a' }) app_id: string;
  @ApiProperty({ enum: APP_STATUSES }) status: AppStatus;
  @ApiProperty({ description: 'when the app was provisioned at this merchant (or last re-provisioned)' }) bound_at: string;
  @ApiProperty() updated_at: string;
}
