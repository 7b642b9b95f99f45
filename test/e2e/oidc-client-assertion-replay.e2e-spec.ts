import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { randomUUID } from 'node:crypto';
import { adminClient } from '../support/admin-client.js';
import { REDIRECT_URI } from '../support/oidc-flow.js';
import { canShareDatabase, startTestApp, type TestApp } from '../support/test-app.js';

const TRIALS = 5;
const AT_ONCE = 6;

/**
 * RFC 7523 §3 / OpenID Connect Core §9: a client assertion is used once. The same assertion sent several times at
 * once, spread over two instances on one database (one instance on the embedded database), authenticates the client
 * at most once: every other request is answered invalid_client. Without Redis this is the database's replay table.
 */
describe('a private_key_jwt client assertion replayed concurrently', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await startTestApp();
    b = canShareDatabase() ? await startTestApp({ sameDatabaseAs: a }) : a;
  });
  afterAll(async () => {
    if (b !== a) await b?.close();
    await a?.close();
  });

  it('authenticates the client at most once per assertion', async () => {
    const keys = await generateKeyPair('ES256', { extractable: true });
    const m = await adminClient(a.baseUrl, a.adminToken).createMerchant({
      name: 'Assertion shop',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [{ ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'ES256' }] },
    });
    const tokenEndpoint = `${a.baseUrl}/oidc/token`;
    const accepted: number[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const assertion = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer(m.client_id)
        .setSubject(m.client_id)
        .setAudience(tokenEndpoint)
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime('1m')
        .sign(keys.privateKey);
      const statuses = await Promise.all(
        Array.from({ length: AT_ONCE }, (_, i) =>
          fetch(`${(i % 2 ? b : a).baseUrl}/oidc/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              grant_type: 'authorization_code',
              code: 'not-a-code',
              redirect_uri: REDIRECT_URI,
              client_id: m.client_id,
              client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
              client_assertion: assertion,
            }),
          }).then(async (res) => ({ status: res.status, error: ((await res.json()) as { error: string }).error })),
        ),
      );
      // Authenticated: the client got as far as its (bogus) code, invalid_grant. Every other answer: invalid_client.
      accepted.push(statuses.filter((s) => s.error === 'invalid_grant').length);
      expect(statuses.filter((s) => s.error !== 'invalid_grant').every((s) => s.status === 401 && s.error === 'invalid_client')).toBe(true);
    }
    expect(accepted).toEqual(Array(TRIALS).fill(1));
  }, 60_000);
});
