import { errors } from 'oidc-provider';

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
