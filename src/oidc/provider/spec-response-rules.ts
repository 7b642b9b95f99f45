import type Provider from 'oidc-provider';

/**
 * Where the spec's wording differs from the engine's defaults, the difference is applied here, in one
 * place, around the engine's own responses.
 */
export interface SpecResponseRules {
  cibaIntervalSeconds: number;
  /** Signs with the provider's current key of `alg` (OidcProviderService.signJwt). */
  signJwt(payload: Record<string, unknown>, alg: string, audience: string): Promise<string>;
}

export function applySpecResponseRules(provider: Provider, rules: SpecResponseRules): void {
  /* eslint-disable-next-line complexity -- one middleware for the spec's rules around the engine: the Authorization
     scheme before it, then per route (discovery, CIBA, token) an independent `if` on its answer */
  provider.use(async (ctx, next) => {
    // Spec 4.6 / 5.3 show `Authorization: Bearer`; accept the scheme in any letter case, as RFC 6750 §2.1 intends.
    const authorization = ctx.headers.authorization;
    if (authorization && /^bearer /i.test(authorization) && !authorization.startsWith('Bearer ')) {
      ctx.headers.authorization = `Bearer ${authorization.slice(7)}`;
    }
    await next();
    const body = ctx.body as Record<string, unknown> | undefined;
    // request_uri by reference is resolved in front of the engine (request-uri.middleware), so it is supported.
    if (ctx.oidc?.route === 'discovery' && body && typeof body === 'object') {
      body.request_uri_parameter_supported = true;
      // Signed CIBA requests (CIBA Core 7.1.1): the engine's, listed by it (the request-object algorithms, no HS*).
      // Push is delivered by the CIBA module (the engine only knows poll and ping).
      const modes = body.backchannel_token_delivery_modes_supported;
      if (Array.isArray(modes) && !modes.includes('push')) modes.push('push');
    }
    // Spec 2.6: interval is always answered (the engine leaves it out); polls faster than it get slow_down.
    if (ctx.oidc?.route === 'backchannel_authentication' && body && typeof body === 'object' && body.auth_req_id && ctx.status === 200) {
      body.interval = rules.cibaIntervalSeconds;
      // Spec 4.3 declares application/jwt: the same object signed, for a merchant that asks for it (JSON by
      // default: relying-party libraries parse JSON). Signed like the merchant's ID tokens; errors stay JSON.
      if (ctx.accepts('application/json', 'application/jwt') === 'application/jwt') {
        const client = ctx.oidc.client!;
        ctx.body = await rules.signJwt(body, client.idTokenSignedResponseAlg ?? 'RS256', client.clientId);
        ctx.type = 'application/jwt';
      }
    }
    // Spec 2.5 / 2.9: token_type is exactly BEARER.
    if (ctx.oidc?.route === 'token' && body && typeof body === 'object' && body.token_type === 'Bearer') {
      body.token_type = 'BEARER';
    }
  });
}
