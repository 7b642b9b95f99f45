import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { Type } from 'class-transformer';

export class AppIdentityDto {
  @ApiProperty({
    description:
      'The app instance id the merchant provisions and names in login_hint. An identifier, not a secret: it shows nothing and ' +
      'answers nothing by itself (a provisioning also needs provisioning_code, an authentication the app_secret of the bound app).',
    example: 'app-3f9c2a',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  app_id: string;

  @ApiPropertyOptional({
    description:
      'Provisioning: the one-time code the merchant received in its backchannel answer (`provisioning_code`) and showed its user, ' +
      'as the user typed it (any case; hyphen and spaces ignored). Only with it does the app see a provisioning request and ' +
      'answer it (status, approve, complete, decline); it opens that one request until it is answered or expires.',
    example: 'K7M2Q-9XH4T',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  provisioning_code?: string;

  @ApiPropertyOptional({
    description:
      "The app's own secret (at least 32 characters, chosen once per install). Required to approve and complete a provisioning, which binds the app; " +
      'afterwards only an app presenting it sees and answers authentication requests.',
    example: 'k3J9xQ2mV8pL5tR7wY1zA4cE6gH0jN2b',
  })
  @IsOptional()
  @IsString()
  @MinLength(32)
  @MaxLength(200)
  app_secret?: string;
}

export class PendingRequestsQueryDto extends AppIdentityDto {
  @ApiPropertyOptional({ description: 'Cursor of the last answer: only requests made after it', example: '0' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{1,18}$/)
  after?: string;

  @ApiPropertyOptional({ description: 'Long poll: wait up to this many seconds for a request (0-25)', default: 0, example: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(25)
  wait_seconds?: number;
}

export class CompleteRequestDto extends AppIdentityDto {
  @ApiPropertyOptional({
    description: 'Provisioning: the code the user chose, asked of merchants registered with backchannel_user_code_parameter',
    example: '4711',
  })
  @IsOptional()
  @IsString()
  @MinLength(4)
  @MaxLength(64)
  user_code?: string;
}

export class TransactionTextDto {
  @ApiProperty({ enum: ['text', 'markdown'] }) type: 'text' | 'markdown';
  @ApiProperty({
    description: 'Plain text, or markdown without HTML (tags removed): show as text or render as markdown, never as HTML',
    example: 'Pay **100 NOK** to Shop',
  })
  content: string;
}

export class PendingRequestDto {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ['provisioning', 'authentication'] }) kind: string;
  @ApiProperty({ enum: ['pending', 'verifying'] }) state: string;
  @ApiProperty({ example: 'Shop' }) merchant_name: string;
  @ApiPropertyOptional() binding_message?: string;
  @ApiPropertyOptional({ type: TransactionTextDto }) transaction_text?: TransactionTextDto;
  @ApiProperty({ type: [String], example: ['P', 'I'] }) document_kinds: string[];
  @ApiProperty() expires_at: string;
}

export class PendingRequestsDto {
  @ApiProperty({ type: [PendingRequestDto] }) requests: PendingRequestDto[];
  @ApiProperty({ description: 'Pass as `after` in the next poll', example: '42' }) cursor: string;
}

export class ApprovalStartedDto {
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: 'The verification session link (as under the QR code): run the document verification with it. Null when the app already opened it.',
    example: 'brokerverify-test://session?session=Qk9...&api=https%3A%2F%2Fbroker.example%2Fapp%2Fv1',
  })
  session_link: string | null;
}

export class RequestStateDto {
  @ApiProperty({
    enum: ['pending', 'verifying', 'approved', 'denied', 'cancelled', 'expired'],
    description: 'cancelled: the merchant withdrew the request (spec 4.7 operation cancel); stop showing it',
  })
  state: string;
}

export class RequestResultDto {
  @ApiProperty({ enum: ['approved', 'denied'] }) state: 'approved' | 'denied';
  @ApiPropertyOptional({ example: 'the user declined' }) reason?: string;
}
