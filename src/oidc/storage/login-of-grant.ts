import { Provider } from 'oidc-provider';
import type { SealedLogin } from '../../broker/logins/brokered-logins.service.js';

/**
 * What an engine request read of a grant's login, kept for the rest of that request: a code exchange, a refresh or a
 * user-info request reads the grant (one query) and then asks for its account, whose claims are the login's; read in
 * the grant's query, the login costs no round trip of its own. Kept per engine request (the engine's own
 * AsyncLocalStorage context), so nothing outlives the request or crosses to another. `null`: the grant has no live login.
 */
const byRequest = new WeakMap<object, Map<string, SealedLogin | null>>();

export function keepLoginOfGrant(grantId: string, login: SealedLogin | null): void {
  const ctx = Provider.ctx;
  if (!ctx) return;
  let kept = byRequest.get(ctx);
  if (!kept) byRequest.set(ctx, (kept = new Map()));
  kept.set(grantId, login);
}

/** The login read with this grant in the current engine request; undefined when it was not read here. */
export function loginOfGrantRead(grantId: string): SealedLogin | null | undefined {
  const ctx = Provider.ctx;
  return ctx ? byRequest.get(ctx)?.get(grantId) : undefined;
}
