import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsRedirectUri } from './is-redirect-uri.js';
import { MerchantOptionalFields } from './merchant-fields.js';

/** A partial update: fields left out keep their value; `null` is not accepted (send the field to change it). */
export class UpdateMerchantDto extends MerchantOptionalFields {
  @ApiPropertyOptional({ example: 'Example Shop' })
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ example: ['https://shop.example/callback'] })
  @IsOptional() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(20) @IsRedirectUri({ each: true })
  redirect_uris?: string[];
}
