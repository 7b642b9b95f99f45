import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compactDecrypt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK } from 'jose';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, firstResponse, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

type KeyPair = { publicKey: CryptoKey; privateKey: CryptoKey; jwk: JWK };
const keyPair = async (alg: 'RS256' | 'RSA-OAEP-256', kid: string): Promise<KeyPair> => {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  return { publicKey, privateKey, jwk: { ...(await exportJWK(publicKey)), kid } };
};

/**
 * Spec 4.2.3 and 5.5: the merchant's key is the one named by its registered key id, or else the first key
 * of its set, for an inline set and for a JWKS URL alike; for request objects and for encryption.
 */
describe('merchant key selection (spec 4.2.3, 5.5)', () => {
  let t: TestApp;
  let admin: ReturnType<typeof adminClient>;
  let first: KeyPair;
  let second: KeyPair;
  let server: Server;
  let jwksUri = '';
  let changing: unknown[] = [];

  beforeAll(async () => {
    first = await keyPair('RS256', 'k-first');
    second = await keyPair('RS256', 'k-second');
    // /jwks.json serves both keys; /changing.json serves what a test puts in `changing` (a set that changes).
    server = createServer((req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ keys: req.url === '/changing.json' ? changing : [first.jwk, second.jwk] })),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    t = await startTestApp();
    admin = adminClient(t.baseUrl, t.adminToken);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  const requestObject = (clientId: string, key: KeyPair) =>
    new SignJWT({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, scope: 'openid', state: 'from-object', nonce: 'n' })
      .setProtectedHeader({ alg: 'RS256', kid: key.jwk.kid })
      .setIssuer(clientId)
      .setAudience(`${t.baseUrl}/oidc`)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key.privateKey);

  /** 'accepted' when the request reaches the broker page, else the error the merchant is redirected with. */
  const outcome = async (clientId: string, key: KeyPair) => {
    const page = await firstResponse(
      t.baseUrl,
      `${t.baseUrl}/its/index.html?${new URLSearchParams({ client_id: clientId, response_type: 'code', scope: 'openid', redirect_uri: REDIRECT_URI, request: await requestObject(clientId, key) })}`,
    );
    if (page.location?.includes('/its/interaction/')) return 'accepted';
    return page.location ? new URL(page.location).searchParams.get('error') : `status ${page.status}`;
  };

  const merchant = (fields: Record<string, unknown>) =>
    admin.createMerchant({ name: 'Keys', redirect_uris: [REDIRECT_URI], request_object_signing_alg: 'RS256', ...fields });

  it('inline set without a key id: only the first key verifies request objects', async () => {
    const m = await merchant({ jwks: { keys: [first.jwk, second.jwk] } });
    expect(await outcome(m.client_id, second)).toBe('invalid_request_object');
    expect(await outcome(m.client_id, first)).toBe('accepted');
  });

  it('inline set with request_object_key_id: only that key verifies request objects', async () => {
    const m = await merchant({ jwks: { keys: [first.jwk, second.jwk] }, request_object_key_id: 'k-second' });
    expect(await outcome(m.client_id, second)).toBe('accepted');
    expect(await outcome(m.client_id, first)).toBe('invalid_request_object');
  });

  it('jwks_uri: the first key without a key id, the registered key with one; a key gone from the set fails closed', async () => {
    const plain = await merchant({ jwks_uri: jwksUri });
    expect(await outcome(plain.client_id, second)).toBe('invalid_request_object');
    expect(await outcome(plain.client_id, first)).toBe('accepted');
    const named = await merchant({ jwks_uri: jwksUri, request_object_key_id: 'k-second' });
    expect(await outcome(named.client_id, second)).toBe('accepted');
    expect(await outcome(named.client_id, first)).toBe('invalid_request_object');
    // Checked at registration, and again at every use: a key removed from the set later verifies nothing,
    // and no other key of the set takes its place.
    changing = [first.jwk, second.jwk];
    const removedLater = await merchant({ jwks_uri: jwksUri.replace('/jwks.json', '/changing.json'), request_object_key_id: 'k-second' });
    changing = [first.jwk];
    expect(await outcome(removedLater.client_id, second)).not.toBe('accepted');
    expect(await outcome(removedLater.client_id, first)).not.toBe('accepted');
  });

  it('refuses an unknown key id of a jwks_uri set at registration, and a jwks_uri that cannot be fetched to check it', async () => {
    for (const field of ['request_object_key_id', 'encryption_key_id']) {
      const res = await admin.call('POST', '/admin/v1/merchants', { name: 'x', redirect_uris: [REDIRECT_URI], jwks_uri: jwksUri, [field]: 'k-nowhere' });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual({ [field]: ['no key with kid "k-nowhere" at jwks_uri'] });
    }
    const unreachable = jwksUri.replace(/:\d+\//, ':1/');
    const res = await admin.call('POST', '/admin/v1/merchants', {
      name: 'x',
      redirect_uris: [REDIRECT_URI],
      jwks_uri: unreachable,
      request_object_key_id: 'k-first',
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fields)).toEqual(['jwks_uri']);
    expect(res.body.fields.jwks_uri[0]).toMatch(/^could not be fetched to check request_object_key_id/);
    // Without a named key nothing is fetched at registration (the first key is used, spec 4.2.3).
    expect((await admin.call('POST', '/admin/v1/merchants', { name: 'x', redirect_uris: [REDIRECT_URI], jwks_uri: unreachable })).status).toBe(201);

    const m = await merchant({ jwks_uri: jwksUri });
    const patch = await admin.call('PATCH', `/admin/v1/merchants/${m.client_id}`, { request_object_key_id: 'k-unknown' });
    expect(patch.status).toBe(400);
    expect(Object.keys(patch.body.fields)).toEqual(['request_object_key_id']);
    expect((await admin.call('PATCH', `/admin/v1/merchants/${m.client_id}`, { request_object_key_id: 'k-second' })).status).toBe(200);
    // A change that does not touch the keys does not fetch them (the key server may be down meanwhile).
    expect((await admin.call('PATCH', `/admin/v1/merchants/${m.client_id}`, { name: 'Renamed' })).status).toBe(200);
  });

  it('refuses an unknown key id of an inline set at registration, naming the field', async () => {
    for (const field of ['request_object_key_id', 'encryption_key_id']) {
      const res = await admin.call('POST', '/admin/v1/merchants', {
        name: 'x',
        redirect_uris: [REDIRECT_URI],
        jwks: { keys: [first.jwk] },
        [field]: 'k-unknown',
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.fields)).toEqual([field]);
    }
    const m = await merchant({ jwks: { keys: [first.jwk] } });
    const patch = await admin.call('PATCH', `/admin/v1/merchants/${m.client_id}`, { request_object_key_id: 'k-unknown' });
    expect(patch.status).toBe(400);
    expect(Object.keys(patch.body.fields)).toEqual(['request_object_key_id']);
  });

  const encryptedIdToken = async (fields: Record<string, unknown>) => {
    const m = await admin.createMerchant({
      name: 'Encrypting shop',
      redirect_uris: [REDIRECT_URI],
      id_token_encrypted_response_alg: 'RSA-OAEP-256',
      ...fields,
    });
    const config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    const req = await authorizationRequest(config);
    const { callback } = await loginWithTestEid(t.baseUrl, req.url);
    const res = await fetch(`${t.baseUrl}/oidc/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${m.client_id}:${m.client_secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: REDIRECT_URI,
        code_verifier: req.verifier,
      }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { id_token: string }).id_token;
  };

  it('encrypts the ID token with the registered encryption key; the other key of the set cannot decrypt it', async () => {
    const encA = await keyPair('RSA-OAEP-256', 'enc-a');
    const encB = await keyPair('RSA-OAEP-256', 'enc-b');
    const idToken = await encryptedIdToken({ jwks: { keys: [encA.jwk, encB.jwk] }, encryption_key_id: 'enc-b' });
    expect(decodeProtectedHeader(idToken).kid).toBe('enc-b');
    await expect(compactDecrypt(idToken, encA.privateKey)).rejects.toThrow();
    expect((await compactDecrypt(idToken, encB.privateKey)).plaintext.byteLength).toBeGreaterThan(0);
  });

  it('encrypts with the key named from a jwks_uri set, not the first one', async () => {
    const idToken = await encryptedIdToken({ jwks_uri: jwksUri, encryption_key_id: 'k-second' });
    expect(decodeProtectedHeader(idToken).kid).toBe('k-second');
    const asDecryptionKey = async (k: KeyPair) => importJWK(await exportJWK(k.privateKey), 'RSA-OAEP-256');
    await expect(compactDecrypt(idToken, await asDecryptionKey(first))).rejects.toThrow();
    expect((await compactDecrypt(idToken, await asDecryptionKey(second))).plaintext.byteLength).toBeGreaterThan(0);
  });
});
