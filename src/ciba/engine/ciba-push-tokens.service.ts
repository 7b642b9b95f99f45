import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { BrokeredIdentity } from '../../broker/spi/eid-provider.js';
import { loginAccount } from '../../oidc/provider/account-finder.js';
import type { BackchannelAuthenticationRequest } from '../../oidc/provider/ciba-hooks.js';
import { OidcProviderService } from '../../oidc/provider/oidc-provider.service.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';

type Grant = InstanceType<OidcProviderService['engine']['Grant']>;
type EngineClient = InstanceType<OidcProviderService['engine']['Client']>;

const AUTH_REQ_ID_CLAIM = 'urn:openid:params:jwt:claim:auth_req_id';
const RT_HASH_CLAIM = 'urn:openid:params:jwt:claim:rt_hash';

/** OIDC Core 3.1.3.6 hash: the left half of the digest the ID token's algorithm uses, base64url. */
function halfHash(value: string, alg: string): string {
  const bits = alg.endsWith('512') ? 512 : alg.endsWith('384') ? 384 : 256;
  const digest = createHash(`sha${bits}`).update(value, 'ascii').digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

/**
 * The token response of a push delivery (CIBA Core 10.3.1), made with the engine's own models as its token
 * endpoint would make it for the CIBA grant (which it cannot do for push: there is no token request to
 * answer). The ID token also carries `urn:openid:params:jwt:claim:auth_req_id`, `at_hash` and, with a
 * refresh token, `urn:openid:params:jwt:claim:rt_hash`. The engine's request is then removed, so a later
 * poll cannot get a second set. Runs inside the approval's transaction: tokens exist only if the callback is queued.
 */
@Injectable()
export class CibaPushTokensService {
  constructor(
    private readonly oidc: OidcProviderService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The engine's client of the request, found before the approval's transaction begins (it reads the merchant). */
  async clientOf(request: BackchannelAuthenticationRequest): Promise<EngineClient> {
    const client = await this.oidc.engine.Client.find(request.clientId!);
    if (!client) throw new Error('the merchant of this backchannel request is gone');
    return client;
  }

  async tokenResponse(
    request: BackchannelAuthenticationRequest,
    client: EngineClient,
    grant: Grant,
    scheme: string,
    identity: BrokeredIdentity,
  ): Promise<Record<string, unknown>> {
    const engine = this.oidc.engine;
    const scopes = new Set((request.scope ?? '').split(' ').filter(Boolean));
    const { accountId, grantId, acr, amr, authTime } = request;
    const at = new engine.AccessToken({
      accountId: accountId!,
      client,
      grantId: grantId!,
      gty: 'ciba',
      claims: request.claims,
      scope: grant.getOIDCScopeFiltered(scopes),
    });
    const accessToken = await at.save();

    // As the engine's default issueRefreshToken: the merchant may refresh and asked for offline_access.
    let refreshToken: string | undefined;
    if (client.grantTypeAllowed('refresh_token') && scopes.has('offline_access')) {
      const rt = new engine.RefreshToken({
        accountId: accountId!,
        acr,
        amr,
        authTime,
        claims: request.claims,
        client,
        grantId: grantId!,
        gty: 'ciba',
        rotations: 0,
        scope: request.scope!,
      });
      refreshToken = await rt.save();
    }

    // The claims of the login the approval stores (in its transaction), as findAccount answers them for this grant.
    const account = loginAccount(accountId!, client.clientId, scheme, identity, this.config);
    const idToken = new engine.IdToken({ ...(await account.claims('id_token', request.scope!, {}, [])), acr, amr, auth_time: authTime }, { client } as never);
    Object.assign(idToken, { scope: grant.getOIDCScopeFiltered(scopes), mask: request.claims?.id_token ?? {}, rejected: grant.getRejectedOIDCClaims() });
    idToken.set('at_hash', accessToken); // hashed by the engine when it signs
    idToken.set(AUTH_REQ_ID_CLAIM, request.jti!);
    if (refreshToken) idToken.set(RT_HASH_CLAIM, halfHash(refreshToken, client.idTokenSignedResponseAlg ?? 'RS256'));

    const response = {
      access_token: accessToken,
      token_type: 'BEARER', // spec 2.9, as the token endpoint answers
      expires_in: at.expiration,
      id_token: await idToken.issue({ use: 'idtoken' }),
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      scope: at.scope,
    };
    // Removed, not consumed: a consumed request polled later counts as a replay and revokes the grant, which
    // would take the pushed tokens from a merchant that polls by mistake. Removed, a poll gets invalid_grant.
    await request.destroy();
    return response;
  }
}
