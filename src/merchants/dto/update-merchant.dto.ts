import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsRedirectUri } from './is-redirect-uri.js';
import { MerchantOptionalFields } from './merchant-fields.js';
import { OptionalNotNull } from './optional-not-null.js';

/**
 * A partial update: fields left out keep their value. `null` clears an optional setting (scope, keys,
 * encryption…) and is refused with 400 for a field that always has a value (name, redirect_uris, psd2…).
 */
export class UpdateMerchantDto extends MerchantOptionalFields {
  @ApiPropertyOptional({ example: 'Example Shop' })
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ example: ['https://shop.example/callback'] })
  @OptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsRedirectUri({ each: true })
  redirect_uris?: string[];
}
