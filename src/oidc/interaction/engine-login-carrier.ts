import { Injectable } from '@nestjs/common';
import { UnsecuredJWT } from 'jose';
import { randomBytes } from 'node:crypto';
import type { CarriedLogin, LoginCarrier } from '../../broker/login/login-carrier.js';
import { LoginCarrierProvider } from '../../broker/login/login-carrier.js';
import { AppError } from '../../common/errors/app-error.js';
import { LOGIN_OWNER_PARAM } from '../provider/extra-params.js';
import { OidcProviderService } from '../provider/oidc-provider.service.js';
import { OIDC_ROUTES } from '../provider/routes.js';

/** The engine's own lifetime of a pushed request: the browser follows the redirect at once. */
const PUSHED_REQUEST_TTL_SECONDS = 60;
const PUSHED_REQUEST_URN = 'urn:ietf:params:oauth:request_uri:';

/**
 * The engine's interaction carries the logins other front doors start (LoginRequests.begin): their authorization
 * request is stored here as the engine's pushed authorization request (RFC 9126), never built into a URL the browser
 * could change, and the browser goes to the authorization endpoint with its reference alone. The request names the
 * sealed owner; the engine relaxes PKCE for it (extra-params.ts: pkceRequired), since no code is ever issued for it.
 */
@Injectable()
@LoginCarrierProvider()
export class EngineLoginCarrier implements LoginCarrier {
  constructor(private readonly oidc: OidcProviderService) {}

  async carry(login: CarriedLogin): Promise<string> {
    const engine = this.oidc.engine;
    const client = await engine.Client.find(login.clientId);
    // The engine wants a registered redirect URI; it is never used (the login ends with its owner, not a redirect).
    const redirectUri = client?.redirectUris?.[0];
    if (!client || !redirectUri) throw new AppError(400, 'invalid_client', 'the merchant is unknown or disabled');
    const now = Math.floor(Date.now() / 1000);
    const request = new UnsecuredJWT({
      client_id: login.clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: login.scopes.join(' '),
      // Spec 4.2 makes state mandatory; nothing reads it (no redirect to the merchant's redirect URI follows).
      state: randomBytes(16).toString('base64url'),
      prompt: login.prompt,
      ...(login.uiLocales ? { ui_locales: login.uiLocales } : {}),
      [LOGIN_OWNER_PARAM]: login.owner,
    })
      .setIssuedAt(now)
      .setNotBefore(now)
      .setIssuer(login.clientId)
      .setAudience(engine.issuer)
      .setExpirationTime(now + PUSHED_REQUEST_TTL_SECONDS)
      .encode();
    const id = await new engine.PushedAuthorizationRequest({ request }).save(PUSHED_REQUEST_TTL_SECONDS);
    return `${OIDC_ROUTES.authorization}?${new URLSearchParams({ client_id: login.clientId, request_uri: `${PUSHED_REQUEST_URN}${id}` }).toString()}`;
  }
}
