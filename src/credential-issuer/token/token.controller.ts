import { Controller, Header, HttpCode, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { formBody } from '../../common/http/form-body.js';
import { CredentialAuthorizationsService } from '../authorization/credential-authorizations.service.js';
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
    private readonly authorizations: CredentialAuthorizationsService,
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
    if (grantType === 'authorization_code') return this.authorizationCode(req, field);
    if (grantType !== PRE_AUTHORIZED_CODE_GRANT) throw unsupportedGrantType();
    const code = field('pre-authorized_code');
    if (!code) throw invalidRequest('pre-authorized_code is required');
    const txCode = field('tx_code');
    const proof = this.dpop.check(req, VCI_PATHS.token);
    const { accessToken, expiresIn } = await this.issuances.redeem(code, txCode, proof.jkt, proof.spend);
    return { access_token: accessToken, token_type: 'DPoP', expires_in: expiresIn };
  }

  /** RFC 6749 §4.1.3 for a registered wallet (a public client: client_id, PKCE, and the token bound to its DPoP key). */
  private async authorizationCode(req: Request, field: (name: string) => string | undefined): Promise<Record<string, unknown>> {
    const [code, redirectUri, codeVerifier, clientId] = ['code', 'redirect_uri', 'code_verifier', 'client_id'].map(field);
    if (!code || !redirectUri || !clientId) throw invalidRequest('code, redirect_uri and client_id are required');
    if (!codeVerifier || !/^[A-Za-z0-9._~-]{43,128}$/.test(codeVerifier)) throw invalidRequest('code_verifier is required (RFC 7636 §4.1)');
    const proof = this.dpop.check(req, VCI_PATHS.token);
    const { recordId } = await this.authorizations.exchange(code, clientId, redirectUri, codeVerifier, proof.spend);
    const { accessToken, expiresIn } = await this.issuances.redeemAuthorization(recordId, clientId, proof.jkt);
    return { access_token: accessToken, token_type: 'DPoP', expires_in: expiresIn };
  }

  /** OpenID4VCI 1.0 §7.2: a fresh c_nonce, never cached. It is sealed, not stored: anyone may ask, and often. */
  @Post(VCI_PATHS.nonce)
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async nonce(): Promise<{ c_nonce: string }> {
    return { c_nonce: await this.singleUse.newNonce() };
  }
}
