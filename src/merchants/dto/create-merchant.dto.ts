import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsRedirectUri } from './is-redirect-uri.js';
import { MerchantOptionalFields } from './merchant-fields.js';

export class CreateMerchantDto extends MerchantOptionalFields {
  @ApiProperty({ description: 'Display name shown to end users on the broker page.', example: 'Example Shop' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @ApiProperty({
    description: 'Exact redirect URIs (compared character for character). https only in production; http://localhost also in customer-test.',
    example: ['https://shop.example/callback'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsRedirectUri({ each: true })
  redirect_uris: string[];
}
