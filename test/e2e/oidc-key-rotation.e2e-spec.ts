import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { describeWithPostgres } from '../support/describe-with-postgres.js';

// Two instances need one PostgreSQL database (CI sets DATABASE_URL); the embedded database is per process.

/**
 * Publish first, sign later: a rotated key is in every instance's JWKS before any instance signs with it,
 * so a token from either instance verifies against the other's JWKS at every moment.
 */
describeWithPostgres('signing key rotation across two instances', () => {
  const RELOAD_SECONDS = 2;
  let a: TestApp;
  let b: TestApp;
  let merchant: { client_id: string; client_secret: string };

  beforeAll(async () => {
    a = await startTestApp({ env: { KEY_RELOAD_SECONDS: String(RELOAD_SECONDS) } });
    b = await startTestApp({ sameDatabaseAs: a });
    merchant = await adminClient(a.baseUrl, a.adminToken).createMerchant({ name: 'Shop', redirect_uris: [REDIRECT_URI] });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const jwksOf = async (t: TestApp) => (await (await fetch(`${t.baseUrl}/oidc/jwks`)).json()) as JSONWebKeySet;
  const kids = (set: JSONWebKeySet) => set.keys.map((k) => k.kid);

  /** A login at one instance up to the code; `exchange()` then gets the ID token (signed at that moment). */
  const loginAt = async (t: TestApp) => {
    const config = await discover(`${t.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
    const req = await authorizationRequest(config, { scope: 'openid' });
    const { callback } = await loginWithTestEid(t.baseUrl, req.url);
    return {
      exchange: async () =>
        (await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: req.verifier, expectedState: req.state, expectedNonce: req.nonce }))
          .id_token!,
    };
  };
  const idTokenFrom = async (t: TestApp): Promise<string> => (await loginAt(t)).exchange();
  const verifiesAgainst = async (idToken: string, t: TestApp) => {
    await jwtVerify(idToken, createLocalJWKSet(await jwksOf(t)), { audience: merchant.client_id });
  };

  it('publishes the new key on both instances at once, keeps signing with the old one, then switches everywhere', async () => {
    expect(b.config.oidc.keyReloadSeconds).toBe(RELOAD_SECONDS);
    const before = kids(await jwksOf(a));
    expect(kids(await jwksOf(b)).sort()).toEqual([...before].sort());
    // Logins done before the rotation; their codes are exchanged (and their ID tokens signed) right after it,
    // so the check does not depend on how long a whole login takes on a loaded machine.
    const [atA, atB] = [await loginAt(a), await loginAt(b)];

    const rotated = await adminClient(a.baseUrl, a.adminToken).call('POST', '/admin/v1/signing-keys/rotate');
    expect(rotated.status).toBe(200);
    const fresh = (rotated.body as { kid: string; alg: string; created_at: string }[]).filter((k) => !before.includes(k.kid));
    expect(fresh).toHaveLength(2);
    const newRs256 = fresh.find((k) => k.alg === 'RS256')!.kid;

    // Immediately after on A, and on B once it heard of it (NOTIFY at once; its periodic check within one interval,
    // half the publication delay): both publish the new keys, and still the old ones.
    const both = [...before, ...fresh.map((k) => k.kid)];
    expect(kids(await jwksOf(a))).toEqual(expect.arrayContaining(both));
    const deadline = Date.now() + RELOAD_SECONDS * 1000;
    let servedByB = kids(await jwksOf(b));
    while (!both.every((kid) => servedByB.includes(kid)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      servedByB = kids(await jwksOf(b));
    }
    expect(servedByB).toEqual(expect.arrayContaining(both));

    // Tokens issued on either instance right after the rotation verify against the other's JWKS: the old key signs.
    const fromA = await atA.exchange();
    const fromB = await atB.exchange();
    expect(before).toContain(decodeProtectedHeader(fromA).kid);
    expect(before).toContain(decodeProtectedHeader(fromB).kid);
    await verifiesAgainst(fromA, b);
    await verifiesAgainst(fromB, a);

    // After the publication delay (two reload intervals) the new key signs on both; the old stays published.
    await new Promise((r) => setTimeout(r, 2 * RELOAD_SECONDS * 1000 + 700));
    const laterA = await idTokenFrom(a);
    const laterB = await idTokenFrom(b);
    expect(decodeProtectedHeader(laterA).kid).toBe(newRs256);
    expect(decodeProtectedHeader(laterB).kid).toBe(newRs256);
    await verifiesAgainst(laterA, b);
    await verifiesAgainst(laterB, a);
    await verifiesAgainst(fromA, a);
    expect(kids(await jwksOf(b))).toEqual(expect.arrayContaining(before));
  });
});
