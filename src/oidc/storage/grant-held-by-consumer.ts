import Provider, { type AdapterPayload } from 'oidc-provider';

/**
 * The engine's CIBA and device-code grant handlers consume the request first and only then read its grant
 * (the code flow reads the grant before consuming). A concurrent poll that loses the consume race, or finds the
 * request already consumed, revokes the grant as a replay, and could do so in between: then even the poll that
 * won found no grant, and every poll answered invalid_grant. So the winner reads the grant in the statement that
 * consumes, and the engine's Grant lookup later in that same request (the engine's request context) answers it.
 * A token issued from it is still unusable once the grant is revoked: the engine checks the grant on every use.
 */
const heldByRequest = new WeakMap<object, Map<string, AdapterPayload>>();

/** Models whose engine grant handler reads the grant after consuming the model. */
const GRANT_READ_AFTER_CONSUME = new Set(['BackchannelAuthenticationRequest', 'DeviceCode']);

export const grantReadAfterConsume = (model: string): boolean => GRANT_READ_AFTER_CONSUME.has(model);

/** The grant as it was when the current engine request consumed its source (outside an engine request: ignored). */
export function holdGrant(grantId: string, payload: AdapterPayload): void {
  const ctx = Provider.ctx;
  if (!ctx) return;
  let held = heldByRequest.get(ctx);
  if (!held) heldByRequest.set(ctx, (held = new Map()));
  held.set(grantId, payload);
}

export function heldGrant(grantId: string): AdapterPayload | undefined {
  const ctx = Provider.ctx;
  return ctx ? heldByRequest.get(ctx)?.get(grantId) : undefined;
}
