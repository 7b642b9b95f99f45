import { Injectable } from '@nestjs/common';
import { MerchantsService } from '../../merchants/merchants.service.js';
import { invalidClient, missingToken, unknownToken } from '../oidc.errors.js';
import { OidcProviderService } from '../provider/oidc-provider.service.js';
import { parseBasicCredentials } from '../../common/http/basic-credentials.js';

/** Spec 4.5: DELETE /oidc/token invalidates one of the calling merchant's access tokens. */
@Injectable()
export class TokenInvalidationService {
  constructor(
    private readonly oidc: OidcProviderService,
    private readonly merchants: MerchantsService,
  ) {}

  async invalidate(authorization: string | undefined, token: unknown): Promise<void> {
    const credentials = parseBasicCredentials(authorization);
    if (!credentials || !(await this.merchants.verifySecret(credentials.clientId, credentials.secret))) throw invalidClient();
    if (typeof token !== 'string' || token.length === 0 || token.length > 4096) throw missingToken();
    const accessToken = await this.oidc.engine.AccessToken.find(token);
    // Another merchant's token is answered exactly like an unknown one: no probing of others' tokens.
    if (!accessToken || accessToken.isExpired || accessToken.clientId !== credentials.clientId) throw unknownToken();
    await accessToken.destroy();
  }
}
