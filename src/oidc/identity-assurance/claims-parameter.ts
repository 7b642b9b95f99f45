import { type ClaimsParameter, errors } from 'oidc-provider';
import { VERIFIED_CLAIMS } from './verified-claims.js';
import { VerifiedClaimsRequestError, verifiedClaimsSets } from './verified-claims-request.js';

const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The engine's check of the claims parameter (features.claimsParameter.assertClaimsParameter), when an authorization
 * or pushed request arrives: OIDC Core 5.5 (each member null or an object), except that `verified_claims` may also be
 * an array of claim sets (IDA 1.0 §5.7), and a malformed `verified_claims` is invalid_request (IDA §5.8).
 */
export async function assertClaimsParameter(_ctx: unknown, claims: ClaimsParameter): Promise<void> {
  for (const target of ['userinfo', 'id_token'] as const) {
    const requested = (claims as Record<string, unknown>)[target] as Record<string, unknown> | undefined;
    if (requested === undefined) continue;
    for (const [name, value] of Object.entries(requested))
      if (value !== null && !isObject(value) && !(name === VERIFIED_CLAIMS && Array.isArray(value)))
        throw new errors.InvalidRequest(`claims.${target} members must be null or objects`);
    try {
      verifiedClaimsSets(requested, `claims.${target}`);
    } catch (e) {
      if (e instanceof VerifiedClaimsRequestError) throw new errors.InvalidRequest(e.description);
      throw e;
    }
  }
}
