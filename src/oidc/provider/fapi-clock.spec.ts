import type { KoaContextWithOIDC } from 'oidc-provider';
import { assertClientAssertionClock, assertRequestObjectClock, claimFromTheFuture } from './fapi-clock.js';

const NOW = 1_800_000_000;
const contextOf = (profile: string | undefined, route = 'pushed_authorization_request') =>
  ({
    oidc: { route, issuer: 'https://id.example/oidc', client: { metadata: () => ({ security_profile: profile }) }, isFapi: () => undefined },
  }) as unknown as KoaContextWithOIDC;

describe('FAPI 2.0 SP 5.3.2.1 clock rule', () => {
  it('names the iat or nbf more than 60 s ahead; 60 s exactly, the past and absent claims pass', () => {
    expect(claimFromTheFuture({ iat: NOW + 61 }, NOW)).toBe('iat');
    expect(claimFromTheFuture({ iat: NOW, nbf: NOW + 61 }, NOW)).toBe('nbf');
    expect(claimFromTheFuture({ iat: NOW + 60, nbf: NOW + 60 }, NOW)).toBeUndefined();
    expect(claimFromTheFuture({ iat: NOW - 3000 }, NOW)).toBeUndefined();
    expect(claimFromTheFuture({ iat: 'soon' }, NOW)).toBeUndefined();
    expect(claimFromTheFuture({}, NOW)).toBeUndefined();
  });

  it('refuses a fapi2 merchant only: a default merchant keeps the engine rules', async () => {
    const ahead = { iat: Math.floor(Date.now() / 1000) + 120, aud: 'https://id.example/oidc' };
    await expect(assertClientAssertionClock(contextOf('fapi2'), ahead, {}, undefined)).rejects.toMatchObject({ error: 'invalid_client' });
    await expect(assertClientAssertionClock(contextOf('default'), ahead, {}, undefined)).resolves.toBeUndefined();
    await expect(assertRequestObjectClock(contextOf('fapi2'), ahead, {}, undefined)).rejects.toMatchObject({ error: 'invalid_request_object' });
    await expect(assertRequestObjectClock(contextOf(undefined), ahead, {}, undefined)).resolves.toBeUndefined();
  });
});
