import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { UpstreamClientKeysService } from './upstream-client-keys.service.js';
import { UpstreamJwksDto } from './upstream-jwks.dto.js';

/**
 * `GET /its/eid/jwks`: the jwks_uri an operator registers at each upstream provider (one for all schemes),
 * public keys only.
 */
@ApiTags('eid-schemes')
@Controller('its/eid/jwks')
export class UpstreamJwksController {
  constructor(private readonly keys: UpstreamClientKeysService) {}

  @Get()
  @Header('content-type', 'application/jwk-set+json')
  @Header('cache-control', 'public, max-age=300')
  @ApiOperation({
    summary: "The broker's public keys as a client of upstream eID providers (register this URL as jwks_uri at the upstream)",
    description:
      'use "sig": keys that sign our private_key_jwt client assertions (RS256, ES256). use "enc": keys an upstream encrypts ID tokens to, when the scheme asks for encrypted ID tokens. Public keys only; no authentication.',
  })
  @ApiOkResponse({ type: UpstreamJwksDto })
  jwks(): Promise<UpstreamJwksDto> {
    return this.keys.publicJwks() as Promise<UpstreamJwksDto>;
  }
}
