import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsOptional } from 'class-validator';
import { RESPONSE_MODES } from '../merchant.entity.js';
import { OptionalNotNull } from './optional-not-null.js';

/**
 * A merchant's message signing (FAPI 2.0 Message Signing): signed authorization requests (§5.3.1, RFC 9101) and signed
 * authorization responses (§5.4.1, JARM). Both are plain registration metadata of their RFCs, so a security team reads
 * them as the profile names them; a fapi2 merchant with both set is a Message Signing client.
 */
export class MessageSigningFields {
  @ApiPropertyOptional({
    description:
      'RFC 9101 §10.5: every authorization request must be a request object signed with a key of jwks or jwks_uri ' +
      '(inside PAR for fapi2 merchants: FAPI 2.0 Message Signing §5.3.1, with aud, nbf and exp); an unsigned request is ' +
      'refused (invalid_request).',
    default: false,
    example: true,
  })
  @OptionalNotNull()
  @IsBoolean()
  require_signed_request_object?: boolean;

  @ApiPropertyOptional({
    description:
      'FAPI 2.0 Message Signing §5.3.3: the response modes this merchant may use; null, every mode the service offers. ' +
      '["jwt"] requires signed authorization responses (JARM, Message Signing §5.4.1): a request with another mode is refused.',
    enum: RESPONSE_MODES,
    isArray: true,
    nullable: true,
    example: ['jwt'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(RESPONSE_MODES.length)
  @ArrayUnique()
  @IsIn(RESPONSE_MODES, { each: true })
  response_modes?: string[] | null;
}
