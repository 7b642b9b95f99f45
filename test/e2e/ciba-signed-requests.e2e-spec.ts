import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import * as client from 'openid-client';
import { CibaAppClient } from '@identity-broker/verifier-sdk';
import { adminClient } from '../support/admin-client.js';
import { cibaError, provisioning, provisioningCodeOf } from '../support/ciba-flow.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** CIBA Core 7.1.1: signed backchannel requests (a `request` JWT) with the merchant's registered key and algorithm. */
describe('CIBA signed authentication requests', () => {
  let t: TestApp;
  let issuer: string;
  let key: CryptoKey;
  let otherKey: CryptoKey;
  let signed: { client_id: string; client_secret: string };
  let open: { client_id: string; client_secret: string };

  /** A signed request object as CIBA Core 7.1.1 describes it, with `claims` overriding or removing (undefined) members. */
  const requestObject = (
    m: { client_id: string },
    params: Record<string, unknown>,
    opts: { alg?: string; signWith?: CryptoKey; claims?: Record<string, unknown> } = {},
  ) => {
    const now = Math.floor(Date.now() / 1000);
    const payload: Record<string, unknown> = {
      iss: m.client_id,
      aud: issuer,
      iat: now,
      nbf: now,
      exp: now + 300,
      jti: randomUUID(),
      ...params,
      ...opts.claims,
    };
    for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k];
    return new SignJWT(payload).setProtectedHeader({ alg: opts.alg ?? 'ES256', kid: 'shop-ciba' }).sign(opts.signWith ?? key);
  };
  const backchannel = (m: { client_id: string; client_secret: string }, body: Record<string, string>) =>
    fetch(`${t.baseUrl}/oidc/ciba.html`, {
      method: 'POST',
      headers: { authorization: basic(m.client_id, m.client_secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

  beforeAll(async () => {
    t = await startTestApp({ env: { CIBA_POLL_INTERVAL_SECONDS: '1' } });
    issuer = `${t.baseUrl}/oidc`;
    const pair = await generateKeyPair('ES256', { extractable: true });
    key = pair.privateKey;
    otherKey = (await generateKeyPair('ES256')).privateKey;
    const jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'shop-ciba', use: 'sig', alg: 'ES256' }] };
    const admin = adminClient(t.baseUrl, t.adminToken);
    signed = await admin.createMerchant({ name: 'Signing shop', redirect_uris: [REDIRECT_URI], jwks, backchannel_authentication_request_signing_alg: 'ES256' });
    open = await admin.createMerchant({ name: 'Open shop', redirect_uris: [REDIRECT_URI], jwks });
  });
  afterAll(() => t?.close());

  it('lists the request signing algorithms in discovery', async () => {
    const config = await discover(issuer, signed.client_id, signed.client_secret);
    expect(config.serverMetadata().backchannel_authentication_request_signing_alg_values_supported).toEqual(['RS256', 'PS256', 'ES256']);
  });

  it('accepts a request JWT signed with the registered key: its parameters count, those outside it do not', async () => {
    const request = await requestObject(signed, {
      scope: 'openid',
      login_hint: 'signed-app',
      binding_message: provisioning('signed-app', { bindingMessage: 'Signed hello' }),
      requested_expiry: 120,
    });
    // login_hint outside the JWT is ignored (CIBA Core 7.1.1: only the signed parameters are used).
    const res = await backchannel(signed, { request, login_hint: 'someone-else' });
    expect(res).toEqual({ status: 200, body: { auth_req_id: expect.any(String), expires_in: 120, interval: 1, provisioning_code: expect.any(String) } });
    const { requests } = await new CibaAppClient(`${t.baseUrl}/app/v1`, 'signed-app').usingProvisioningCode(provisioningCodeOf(res.body)).pending(undefined, 2);
    expect(requests).toEqual([expect.objectContaining({ kind: 'provisioning', binding_message: 'Signed hello' })]);
  });

  it('refuses a bad signature, another algorithm than the registered one, an HS algorithm, a missing claim, the wrong audience and an expired JWT with invalid_request', async () => {
    const params = { scope: 'openid', login_hint: 'signed-app', binding_message: provisioning('signed-app') };
    const rsaKey = (await generateKeyPair('RS256')).privateKey;
    const refusals: [Promise<string>, string][] = [
      [requestObject(signed, params, { signWith: otherKey }), 'could not validate Request Object'],
      [requestObject(signed, params, { alg: 'RS256', signWith: rsaKey }), 'the preregistered alg must be used in request or request_uri'],
      [requestObject(signed, params, { alg: 'HS256', signWith: new TextEncoder().encode(signed.client_secret) as never }), 'unsupported signed request alg'],
      [requestObject(signed, params, { claims: { jti: undefined } }), "Request Object is missing the 'jti' claim"],
      [requestObject(signed, params, { claims: { nbf: undefined } }), "Request Object is missing the 'nbf' claim"],
      [requestObject(signed, params, { claims: { aud: 'https://elsewhere.example' } }), 'Request Object claims are invalid'],
      [requestObject(signed, params, { claims: { iss: open.client_id } }), 'Request Object claims are invalid'],
      [
        requestObject(signed, params, {
          claims: { exp: Math.floor(Date.now() / 1000) - 600, iat: Math.floor(Date.now() / 1000) - 900, nbf: Math.floor(Date.now() / 1000) - 900 },
        }),
        'Request Object claims are invalid',
      ],
    ];
    for (const [request, description] of refusals)
      expect(await backchannel(signed, { request: await request })).toEqual({
        status: 400,
        body: { error: 'invalid_request', error_description: description },
      });
  });

  it('requires a signed request of a merchant registered for one; another merchant may send either', async () => {
    const plain = { scope: 'openid', login_hint: 'plain-app', binding_message: provisioning('plain-app') };
    expect(await backchannel(signed, plain)).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Request Object must be used by this client' },
    });
    expect((await backchannel(open, plain)).status).toBe(200);
    expect(
      (await backchannel(open, { request: await requestObject(open, { ...plain, login_hint: 'plain-app-2', binding_message: provisioning('plain-app-2') }) }))
        .status,
    ).toBe(200);
    // Through openid-client too: a request object signed by a key the merchant did not register is refused.
    const config = await discover(issuer, open.client_id, open.client_secret);
    expect(
      await cibaError(client.initiateBackchannelAuthentication(config, { scope: 'openid', request: await requestObject(open, plain, { signWith: otherKey }) })),
    ).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses to register a signing algorithm without keys to verify it', async () => {
    const res = await adminClient(t.baseUrl, t.adminToken).call('POST', '/admin/v1/merchants', {
      name: 'No keys',
      redirect_uris: [REDIRECT_URI],
      backchannel_authentication_request_signing_alg: 'ES256',
    });
    expect(res.status).toBe(400);
    expect(res.body.error_description).toContain('backchannel_authentication_request_signing_alg: needs jwks or jwks_uri with the verification key');
  });
});
