import { Inject, Injectable } from '@nestjs/common';
import { importJWK, SignJWT } from 'jose';
import { APP_CONFIG, type AppConfig } from '../config/load-config.js';
import { OidcProviderService } from '../oidc/provider/oidc-provider.service.js';
import type { AuthFileResponseDto } from './dto/fetch-auth-file.dto.js';

/** A signed answer is a proof to show others; it stays checkable against the JWKS for a while, not for ever. */
const LIFETIME_SECONDS = 15 * 60;

/**
 * Spec 4.8 declares `application/jwt` for the 200 answer: with `Accept: application/jwt` the same object is
 * sent as a JWT signed with the provider's current key of the merchant's ID token algorithm (published in
 * /oidc/jwks, so the merchant verifies it as it verifies ID tokens), issued by the OIDC issuer to the merchant.
 */
@Injectable()
export class AuthFilesJwtSigner {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly oidc: OidcProviderService,
  ) {}

  async sign(response: AuthFileResponseDto, clientId: string, alg: 'RS256' | 'ES256', now: Date): Promise<string> {
    // The key that signs ID tokens now, from memory (no read of the key rows per answer).
    const jwk = this.oidc.signingKeyOf(alg);
    if (!jwk?.kid) throw new Error(`no ${alg} signing key`);
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ ...response })
      .setProtectedHeader({ alg, kid: jwk.kid, typ: 'JWT' })
      .setIssuer(`${this.config.baseUrl}/oidc`)
      .setAudience(clientId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + LIFETIME_SECONDS)
      .sign(await importJWK(jwk, alg));
  }
}
