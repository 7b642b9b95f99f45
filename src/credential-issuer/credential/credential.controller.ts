import { Body, Controller, Header, HttpCode, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { invalidToken } from '../credential-issuer.errors.js';
import { VCI_PATHS } from '../credential-issuer-paths.js';
import { CredentialIssuingService } from './credential-issuing.service.js';

/**
 * The credential endpoint (OpenID4VCI 1.0 §8), for wallets: a DPoP-bound access token (`Authorization: DPoP …`;
 * Bearer is refused, HAIP 1.0 §4), a DPoP proof, and key proofs; answers the batch of credentials.
 */
@ApiExcludeController()
@Controller()
export class CredentialController {
  constructor(private readonly issuing: CredentialIssuingService) {}

  @Post(VCI_PATHS.credential)
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  credential(@Req() req: Request, @Body() body: unknown): Promise<{ credentials: { credential: string }[] }> {
    const authorization = req.headers.authorization ?? '';
    const match = /^DPoP ([A-Za-z0-9._~+/-]+=*)$/.exec(authorization);
    if (!match)
      throw invalidToken(
        authorization.startsWith('Bearer ') ? 'the access token is DPoP-bound: send it as Authorization: DPoP' : 'a DPoP-bound access token is required',
      );
    return this.issuing.issue(req, match[1], body);
  }
}
