import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import Provider, { errors } from 'oidc-provider';

/**
 * Single-use grant sources. Finding one that is already consumed can only mean it is being presented
 * again, whatever its age: spec 3 revokes the grant with no time exception, so the adapter revokes on find,
 * before the engine's own expiry check (which would otherwise answer "expired" and revoke nothing).
 */
const SINGLE_USE_GRANT_SOURCES = new Set(['AuthorizationCode', 'BackchannelAuthenticationRequest', 'DeviceCode']);

export const replayRevokesGrant = (model: string): boolean => SINGLE_USE_GRANT_SOURCES.has(model);

/** What the caller that lost a race to consume a row is told (the engine answers it as for a replay). */
export function lostConsumeRace(model: string): Error {
  if (model === 'PushedAuthorizationRequest') return new errors.InvalidRequestUri('request_uri is invalid, expired, or was already used');
  if (model === 'RefreshToken') return new errors.InvalidGrant('refresh token already used');
  return new errors.InvalidGrant(`${model === 'AuthorizationCode' ? 'authorization code' : 'grant'} already consumed`);
}

/**
 * ReplayDetection.unique (the engine) looks before it writes, so of two requests carrying one value at once (two
 * instances, or two connections) both looked and found nothing: the write decides, and the request whose write did not
 * land is the replay. Two checks share the model, keyed by the client and the value: client assertions (RFC 7523 §3)
 * and DPoP proofs (RFC 9449 §11.1). The loser is answered as the engine answers a replay it saw itself: for a DPoP
 * proof (the request's own proof, hashed as the engine keys it) the engine's invalid_grant at the token endpoint (which
 * the provider's DPoP rules answer as invalid_dpop_proof) and invalid_token at user-info; for a client assertion
 * invalid_client.
 */
export function replayRefusal(id: string, iss: unknown): Error {
  const ctx = Provider.ctx;
  if (ctx && typeof iss === 'string' && isMarkerOf(ctx.get('DPoP'), id, iss)) {
    const message = 'DPoP proof JWT Replay detected';
    return ctx.oidc?.route === 'token' ? new errors.InvalidGrant(message) : new errors.InvalidToken(message);
  }
  return new errors.InvalidClientAuth('client assertion tokens must only be used once');
}

/** Whether the marker `id` is the request's DPoP proof's (the engine keys it SHA-256(client id + jti), base64url). */
function isMarkerOf(proof: string, id: string, iss: string): boolean {
  const jti = proof ? dpopJti(proof) : undefined;
  return jti !== undefined && createHash('sha256').update(`${iss}${jti}`).digest('base64url') === id;
}

/** The jti of a proof the engine has already verified (its signature is not checked again here). */
function dpopJti(proof: string): string | undefined {
  try {
    const { jti } = decodeJwt(proof);
    return typeof jti === 'string' ? jti : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How long a replay marker is kept. The engine asks for 300 s from the check, but accepts a DPoP proof whose iat is up
 * to 300 s on either side of its clock: a proof dated 299 s ahead, used once now, would be acceptable again after its
 * marker expired. RFC 9449 §11.1 asks to keep the jti for the whole time the proof is acceptable, so a marker lives at
 * least the width of that window (a client assertion's jti, kept until its exp, is only kept longer).
 */
export const REPLAY_MARKER_MIN_SECONDS = 600;

export function replayRetention(expiresIn: number): number {
  return expiresIn > 0 ? Math.max(expiresIn, REPLAY_MARKER_MIN_SECONDS) : expiresIn;
}
