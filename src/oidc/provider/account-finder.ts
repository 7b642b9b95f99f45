import type { Account, KoaContextWithOIDC } from 'oidc-provider';
import type { BrokeredIdentity } from '../../broker/spi/eid-provider.js';
import { ageOverClaims } from '../../verifier-claims/age.js';
import type { BrokeredLoginsService } from '../../broker/logins/brokered-logins.service.js';
import { loginOfGrantRead } from '../storage/login-of-grant.js';
import { type AssuranceSettings, VERIFIED_CLAIMS, verifiedClaimsOf } from '../identity-assurance/verified-claims.js';

interface TokenLike {
  grantId?: string;
}

/**
 * oidc-provider's findAccount. The accountId is the brokered identity's stable subject; the claims
 * are those of the login that produced the token being answered (found through the token's grant), so
 * a token never answers with another login's data. The engine filters them by the granted scopes
 * (`claims` configuration). Without a token (during the authorization request) only `sub` is known.
 */
export function accountFinder(logins: BrokeredLoginsService, assurance: AssuranceSettings) {
  return async (ctx: KoaContextWithOIDC, sub: string, token?: TokenLike): Promise<Account | undefined> => {
    if (!token?.grantId) return { accountId: sub, claims: async () => ({ sub }) };
    // Usually read with the grant, a moment ago in this request (login-of-grant.ts).
    const read = loginOfGrantRead(token.grantId);
    const login = read === undefined ? await logins.findByGrant(token.grantId) : read && logins.unseal(read);
    if (!login || login.identity.subject !== sub) return undefined;
    const clientId = ctx.oidc.client?.clientId;
    if (clientId && login.clientId !== clientId) return undefined;
    return loginAccount(sub, login.clientId, login.scheme, login.identity, assurance);
  };
}

/** The account a login answers for (also for tokens made outside a request: CIBA push). */
export function loginAccount(sub: string, clientId: string, scheme: string, identity: BrokeredIdentity, assurance: AssuranceSettings): Account {
  return {
    accountId: sub,
    claims: async (use, scope, requested) => ({
      ...verifiedClaimsClaim(requested, scheme, identity, scope, assurance),
      ...identity.claims,
      // The authorized party, in the ID token only (OIDC Core §2).
      ...(use === 'id_token' ? { azp: clientId } : {}),
      ...(identity.acr ? { acr: identity.acr } : {}),
      // Where the identity came from, so a merchant can tell schemes apart (issue 14).
      eid_scheme: scheme,
      ...(identity.upstreamIssuer ? { eid_issuer: identity.upstreamIssuer } : {}),
      ...ageOverClaims((scope ?? '').split(' '), identity.birthDate, new Date()),
      sub,
    }),
  };
}

/**
 * verified_claims (OpenID Connect for Identity Assurance 1.0) when the claims parameter asked for them. The engine keeps
 * a requested claim only when its request is null or an object; IDA also allows an array of claim sets, so the
 * request's entry is set to null once read (`requested` is the very object the engine masks the answer with).
 */
function verifiedClaimsClaim(requested: unknown, scheme: string, identity: BrokeredIdentity, scope: string | undefined, assurance: AssuranceSettings) {
  const target = requested as Record<string, unknown> | undefined;
  if (!target?.[VERIFIED_CLAIMS]) return {};
  const answer = verifiedClaimsOf(target, { scheme, identity }, (scope ?? '').split(' '), assurance, new Date());
  if (Array.isArray(target[VERIFIED_CLAIMS])) target[VERIFIED_CLAIMS] = null;
  return answer === undefined ? {} : { [VERIFIED_CLAIMS]: answer };
}
