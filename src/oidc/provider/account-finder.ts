import type { Account, KoaContextWithOIDC } from 'oidc-provider';
import { ageOverClaims } from '../../verifier-claims/age.js';
import type { BrokeredLoginsService } from '../logins/brokered-logins.service.js';

/**
 * oidc-provider's findAccount: the accountId is a completed login; its claims are the brokered
 * identity's, filtered by the engine according to the granted scopes (`claims` configuration).
 * A login is only ever answered for the merchant it was made for.
 */
export function accountFinder(logins: BrokeredLoginsService) {
  return async (ctx: KoaContextWithOIDC, id: string): Promise<Account | undefined> => {
    const login = await logins.find(id);
    if (!login) return undefined;
    const clientId = ctx.oidc.client?.clientId;
    if (clientId && login.clientId !== clientId) return undefined;
    const { identity } = login;
    return {
      accountId: id,
      claims: async (use, scope) => ({
        ...identity.claims,
        // The authorized party, in the ID token only (OIDC Core §2).
        ...(use === 'id_token' ? { azp: login.clientId } : {}),
        ...(identity.acr ? { acr: identity.acr } : {}),
        ...ageOverClaims((scope ?? '').split(' '), identity.birthDate, new Date()),
        sub: identity.subject,
      }),
    };
  };
}
