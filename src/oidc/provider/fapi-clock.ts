import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { defaults } from 'oidc-provider/lib/helpers/defaults.js';
import { isFapi2Client } from './fapi-profile.js';

/**
 * FAPI 2.0 SP 5.3.2.1: the authorization server "should accept JWTs with an iat or nbf timestamp between 0 and 10 seconds
 * in the future but should reject JWTs with an iat or nbf timestamp greater than 60 seconds in the future". The engine
 * refuses an nbf more than 15 s ahead (its clock tolerance), but not an iat ahead when the JWT has an exp; for a fapi2
 * merchant's client assertions and request objects an iat or nbf more than 60 s ahead is refused here.
 */
export const FAPI2_FUTURE_LIMIT_SECONDS = 60;

/** The claim (iat or nbf) more than 60 s ahead of `now` (seconds), if any. */
export function claimFromTheFuture(claims: Record<string, unknown>, now: number): 'iat' | 'nbf' | undefined {
  for (const claim of ['iat', 'nbf'] as const) {
    const value = claims[claim];
    if (typeof value === 'number' && value > now + FAPI2_FUTURE_LIMIT_SECONDS) return claim;
  }
  return undefined;
}

const nowInSeconds = () => Math.floor(Date.now() / 1000);
const engineClientAuthCheck = defaults.assertJwtClientAuthClaimsAndHeader;
const engineRequestObjectCheck = defaults.features.requestObjects.assertJwtClaimsAndHeader;

/** The engine's `assertJwtClientAuthClaimsAndHeader` (the FAPI 2.0 audience rule), then the clock rule: invalid_client. */
export async function assertClientAssertionClock(ctx: KoaContextWithOIDC, claims: Record<string, unknown>, header: Record<string, unknown>, client: unknown) {
  await engineClientAuthCheck(ctx, claims, header, client);
  const ahead = isFapi2Client(ctx.oidc.client) ? claimFromTheFuture(claims, nowInSeconds()) : undefined;
  if (ahead) throw new errors.InvalidClientAuth(`the client assertion's ${ahead} is more than ${FAPI2_FUTURE_LIMIT_SECONDS} s in the future`);
}

/** The engine's request object checks (FAPI: exp, aud, nbf at most 60 min apart; CIBA's), then the clock rule: invalid_request_object. */
export async function assertRequestObjectClock(ctx: KoaContextWithOIDC, claims: Record<string, unknown>, header: Record<string, unknown>, client: unknown) {
  await engineRequestObjectCheck(ctx, claims, header, client);
  const ahead = isFapi2Client(ctx.oidc.client) ? claimFromTheFuture(claims, nowInSeconds()) : undefined;
  if (ahead) throw new errors.InvalidRequestObject(`the request object's ${ahead} is more than ${FAPI2_FUTURE_LIMIT_SECONDS} s in the future`);
}
