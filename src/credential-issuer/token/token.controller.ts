import { Controller, Header, HttpCode, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { formBody } from '../../common/http/form-body.js';
import { invalidRequest, unsupportedGrantType } from '../credential-issuer.errors.js';
import { VCI_PATHS } from '../credential-issuer-paths.js';
import { CredentialIssuancesService } from '../issuances/credential-issuances.service.js';
import { SingleUseValuesService } from '../nonces/single-use-values.service.js';
import { DpopProofsService } from './dpop-proofs.service.js';

export const PRE_AUTHORIZED_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
const MAX_FIELD = 512;

/**
 * The issuer's authorization server, for wallets (not in the merchants' API reference): the token endpoint of the
 * pre-authorized code flow (OpenID4VCI 1.0 §6), DPoP-bound, and the nonce endpoint (§7).
 */
@ApiExcludeController()
@Controller()
export class TokenController {
  constructor(
    private readonly issuances: CredentialIssuancesService,
    private readonly dpop: DpopProofsService,
    private readonly singleUse: SingleUseValuesService,
  ) {}

  @Post(VCI_PATHS.token)
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async token(@Req() req: Request): Promise<Record<string, unknown>> {
    const form = formBody(req);
    const field = (name: string): string | undefined => {
      const value = form[name];
      if (value === undefined) return undefined;
      if (typeof value !== 'string' || value.length > MAX_FIELD) throw invalidRequest(`${name} must be given once, as text of at most ${MAX_FIELD} characters`);
      return value;
    };
    const grantType = field('grant_type');
    if (grantType === undefined) throw invalidRequest('grant_type is required');
    if (grantType !== PRE_AUTHORIZED_CODE_GRANT) throw unsupportedGrantType();
    const code = field('pre-authorized_code');
    if (!code) throw invalidRequest('pre-authorized_code is required');
    const txCode = field('tx_code');
    const jkt = await this.dpop.check(req, VCI_PATHS.token);
    const { accessToken, expiresIn } = await this.issuances.redeem(code, txCode, jkt);
    return { access_token: accessToken, token_type: 'DPoP', expires_in: expiresIn };
  }

  /** OpenID4VCI 1.0 §7.2: a fresh c_nonce, never cached. */
  @Post(VCI_PATHS.nonce)
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async nonce(): Promise<{ c_nonce: string }> {
    return { c_nonce: (await this.singleUse.newNonce()).nonce };
  }
}
