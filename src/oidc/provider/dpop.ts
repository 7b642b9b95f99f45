import { createHash } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { AppError } from '../../common/errors/app-error.js';
import { answerEngineError } from '../../common/errors/engine-error-hook.js';

type DpopFeature = NonNullable<Configuration['features']>['dPoP'];

/**
 * DPoP (RFC 9449) as the engine runs it, for every merchant: a token request with a proof gets tokens bound to the
 * proof's key, and a merchant registered with `dpop_bound_access_tokens` gets none without one. The engine checks each
 * proof (signature by the key it carries, `typ`, `htm`, `htu` against the URL it builds from the public origin, `iat`
 * within 300 s either way, `ath` at user-info, single use of `jti` through the ReplayDetection model of our adapters).
 * With a nonce secret every proof must also carry a nonce of ours (§8): the engine's nonces are derived (HKDF) from the
 * time step, so every instance with the same secret accepts the nonces of the others, with no shared state.
 */
export function dpopFeature(nonceSecret: string | undefined): DpopFeature {
  if (!nonceSecret) return { enabled: true };
  // The engine wants 32 bytes; the variable is any text of 32 characters or more.
  return { enabled: true, nonceSecret: createHash('sha256').update(nonceSecret, 'utf8').digest(), requireNonce: () => true };
}

/**
 * The engine's refusals at the token endpoint that are about the proof, answered by it as invalid_grant ("grant request is
 * invalid"), which tells the merchant its code or refresh token is bad: RFC 9449 §5 names invalid_dpop_proof for a proof
 * that is not acceptable, and that is what is answered, saying why. A request without a proof from a merchant with
 * dpop_bound_access_tokens (§5.2: "MUST reject token requests from this client that do not contain the DPoP header"),
 * and a proof used before (§11.1; the replay store's loser of a race is refused with the same detail, replay.ts).
 * A request without a proof consumes nothing (the same code works with a proof); the engine checks a code exchange's
 * proof for replay only after spending the code, as a replayed proof is an attacker's, never the merchant's retry.
 */
const PROOF_REFUSALS: Record<string, string> = {
  'DPoP proof JWT not provided': 'this client must send a DPoP proof with every token request (dpop_bound_access_tokens)',
  'DPoP proof JWT Replay detected': 'this DPoP proof was already used (its jti): send a new proof with every request',
};

export function applyDpopRules(provider: Provider): void {
  provider.on('grant.error', (ctx: KoaContextWithOIDC, err: { error_detail?: string }) => {
    const description = err.error_detail === undefined ? undefined : PROOF_REFUSALS[err.error_detail];
    if (!description || !ctx.body || typeof ctx.body !== 'object') return;
    answerEngineError(ctx, new AppError(400, 'invalid_dpop_proof', description));
  });
}
