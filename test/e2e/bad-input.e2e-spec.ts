import http from 'node:http';
import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { TestBrowser } from '../support/test-browser.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const FORM = 'application/x-www-form-urlencoded';

/** Malformed input is refused with a 4xx and the spec's error object (2.7), never a 500. */
describe('bad input', () => {
  let t: TestApp;
  let admin: ReturnType<typeof adminClient>;
  let merchant: { client_id: string; client_secret: string };
  let config: client.Configuration;

  const send = async (method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) => {
    const res = await fetch(`${t.baseUrl}${path}`, { method, redirect: 'manual', headers: init.headers, body: init.body });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, type: res.headers.get('content-type') ?? '', text, json };
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = adminClient(t.baseUrl, t.adminToken);
    merchant = await admin.createMerchant({ name: 'Shop', redirect_uris: [REDIRECT_URI] });
    config = await discover(`${t.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
  });
  afterAll(() => t?.close());
  const merchantAuthForm = () => ({ authorization: basic(merchant.client_id, merchant.client_secret), 'content-type': FORM });

  describe('a NUL character (U+0000) is refused at the edge with 400 invalid_request', () => {
    const merchantAuth = () => ({ authorization: basic(merchant.client_id, merchant.client_secret), 'content-type': FORM });

    it.each([
      ['token code', () => send('POST', '/oidc/token', { headers: merchantAuth(), body: 'grant_type=authorization_code&code=ab%00cd&redirect_uri=x' })],
      ['token refresh_token', () => send('POST', '/oidc/token', { headers: merchantAuth(), body: 'grant_type=refresh_token&refresh_token=%00' })],
      ['token code in the query', () => send('POST', '/oidc/token?code=%00', { headers: merchantAuth(), body: 'grant_type=authorization_code' })],
      ['revocation', () => send('POST', '/oidc/token/revocation', { headers: merchantAuth(), body: 'token=a%00b' })],
      [
        'pushed request',
        () => send('POST', '/oidc/par', { headers: merchantAuth(), body: `client_id=${merchant.client_id}&response_type=code&scope=openid&state=%00` }),
      ],
      ['token invalidation without credentials', () => send('DELETE', '/oidc/token?token=%00')],
      ['token invalidation, form body', () => send('DELETE', '/oidc/token', { headers: { 'content-type': FORM }, body: 'token=%00' })],
      [
        'Basic credentials',
        () =>
          send('POST', '/oidc/token', {
            headers: { authorization: `Basic ${Buffer.from('m\u0000:s').toString('base64')}`, 'content-type': FORM },
            body: 'grant_type=authorization_code&code=x',
          }),
      ],
      ['admin path', () => send('GET', '/admin/v1/merchants/m_%00', { headers: { authorization: `Bearer ${t.adminToken}` } })],
      ['admin query', () => send('GET', '/admin/v1/audit?target_type=merchant&target_id=%00', { headers: { authorization: `Bearer ${t.adminToken}` } })],
      [
        'admin JSON body',
        () =>
          send('PATCH', `/admin/v1/merchants/${merchant.client_id}`, {
            headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
            body: '{"name":"a\\u0000b"}',
          }),
      ],
      [
        'admin JSON key',
        () =>
          send('POST', '/admin/v1/merchants', {
            headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
            body: '{"name":"n","redirect_uris":["https://a.example/cb"],"\\u0000":1}',
          }),
      ],
      ['app API JSON body', () => send('POST', '/app/v1/sessions', { headers: { 'content-type': 'application/json' }, body: '{"qr_token":"\\u0000"}' })],
    ])('%s', async (_name, call) => {
      const res = await call();
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('NUL') });
    });

    it('a NUL hidden in a client assertion (a JWT the engine decodes to find the client)', async () => {
      const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const assertion = `${part({ alg: 'HS256' })}.${part({ iss: 'm\u0000', sub: 'm\u0000', aud: `${t.baseUrl}/oidc/token` })}.c2ln`;
      const res = await send('POST', '/oidc/token', {
        headers: { 'content-type': FORM },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: 'x',
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: assertion,
        }).toString(),
      });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('NUL') });
    });

    it.each([
      ['claims', JSON.stringify({ userinfo: { 'given_name\u0000': null } })],
      ['binding_message', '{"bindingMessage":"a\\u0000b"}'],
      ['binding_message', Buffer.from('{"bindingMessage":"a\\u0000b"}').toString('base64')],
    ])('a NUL escaped inside the JSON of %s', async (name, value) => {
      const req = await authorizationRequest(config, { [name]: value });
      const res = await send('GET', `${req.url.pathname}${req.url.search}`);
      expect(res.status).toBe(400);
      expect(res.text).toContain('invalid_request');
    });

    it('answers the authorization endpoint with the error page of spec 4.2.2 (HTML, 400)', async () => {
      const req = await authorizationRequest(config, { state: 'a\u0000b' });
      const res = await send('GET', `${req.url.pathname}${req.url.search}`);
      expect(res.status).toBe(400);
      expect(res.type).toMatch(/text\/html/);
      expect(res.text).toContain('invalid_request');
    });

    it('still accepts the same requests without the NUL', async () => {
      const res = await send('POST', '/oidc/token', { headers: merchantAuth(), body: 'grant_type=authorization_code&code=abcd&redirect_uri=x' });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_grant');
    });
  });

  describe('a lone UTF-16 surrogate (ill-formed Unicode) is refused at the edge with 400 invalid_request', () => {
    const adminJson = () => ({ authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' });
    const scheme =
      '{"id":"lone","labels":{"en_GB":"x\\udfff"},"environment":"customer-test","issuer":"https://lone.example/oidc","client_id":"broker","client_secret":"s"}';
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

    // Each answered 500 before: PostgreSQL refuses the surrogate in the audit record's jsonb.
    it.each([
      ['merchant name (PATCH)', () => send('PATCH', `/admin/v1/merchants/${merchant.client_id}`, { headers: adminJson(), body: '{"name":"a\\udfff"}' })],
      [
        'merchant name (POST)',
        () => send('POST', '/admin/v1/merchants', { headers: adminJson(), body: '{"name":"a\\udfff","redirect_uris":["https://a.example/cb"]}' }),
      ],
      ['admin token label', () => send('POST', '/admin/v1/tokens', { headers: adminJson(), body: '{"role":"support","label":"a\\ud800"}' })],
      ['eID scheme labels', () => send('POST', '/admin/v1/eid-schemes', { headers: adminJson(), body: scheme })],
      ['a JSON key', () => send('PATCH', `/admin/v1/merchants/${merchant.client_id}`, { headers: adminJson(), body: '{"\\udc00":1}' })],
      ['app API JSON body', () => send('POST', '/app/v1/sessions', { headers: { 'content-type': 'application/json' }, body: '{"qr_token":"\\ud83d"}' })],
      [
        'claims of a pushed request (a body the engine reads)',
        () =>
          send('POST', '/oidc/par', {
            headers: merchantAuthForm(),
            body: `client_id=${merchant.client_id}&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(REDIRECT_URI)}&state=s&claims=${encodeURIComponent('{"userinfo":{"given_name":{"value":"\\udfff"}}}')}`,
          }),
      ],
      [
        'a client assertion the engine decodes',
        () =>
          send('POST', '/oidc/token', {
            headers: { 'content-type': FORM },
            body: new URLSearchParams({
              grant_type: 'authorization_code',
              code: 'x',
              client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
              client_assertion: `${part({ alg: 'HS256' })}.${Buffer.from(`{"iss":"${merchant.client_id}\\ud800","sub":"x"}`).toString('base64url')}.c2ln`,
            }).toString(),
          }),
      ],
    ])('%s', async (_name, call) => {
      const res = await call();
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('lone UTF-16 surrogate') });
    });

    it('answers the authorization endpoint with the error page of spec 4.2.2 (HTML, 400)', async () => {
      const req = await authorizationRequest(config, { claims: '{"userinfo":{"given_name":{"essential":true,"value":"\\udfff"}}}' });
      const res = await send('GET', `${req.url.pathname}${req.url.search}`);
      expect(res.status).toBe(400);
      expect(res.type).toMatch(/text\/html/);
      expect(res.text).toContain('invalid_request');
    });

    it('percent-encoding cannot carry one: its UTF-8 is invalid and decodes to U+FFFD (or 400 in a path), never a 5xx', async () => {
      const audit = await send('GET', '/admin/v1/audit?target_type=merchant&target_id=%ED%BF%BF', { headers: adminJson() });
      expect(audit.status).toBe(200);
      const path = await send('GET', '/admin/v1/merchants/%ED%BF%BF', { headers: adminJson() });
      expect(path.status).toBe(400);
    });

    it('still accepts surrogate pairs (an emoji in a name)', async () => {
      const res = await send('PATCH', `/admin/v1/merchants/${merchant.client_id}`, { headers: adminJson(), body: '{"name":"Shop \\ud83d\\ude00"}' });
      expect([res.status, res.json.name]).toEqual([200, 'Shop 😀']);
    });
  });

  it('answers 413 to an oversized body for the engine and keeps the connection usable', async () => {
    // One kept-alive socket: the second request only works if the first body was drained, not left unread.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const request = (method: string, path: string, body?: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(`${t.baseUrl}${path}`, { method, agent, headers: body ? { 'content-type': FORM } : {} }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      expect(await request('POST', '/oidc/token', `code=${'x'.repeat(200_000)}`)).toBe(413);
      expect(await request('GET', '/health')).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  describe('broker form POSTs that are not urlencoded', () => {
    it.each([
      ['text/plain', { 'content-type': 'text/plain' }, '_csrf=x'],
      ['multipart', { 'content-type': 'multipart/form-data; boundary=b' }, '--b\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\nx\r\n--b--\r\n'],
      ['no content type', {}, undefined],
    ])('answers 415 for %s', async (_name, headers: Record<string, string>, body) => {
      const browser = new TestBrowser(t.baseUrl);
      const first = await browser.get((await authorizationRequest(config)).url.toString());
      const interaction = new URL(first.location!, t.baseUrl).toString();
      const page = await browser.send(`${interaction}/cancel`, { method: 'POST', headers, body });
      expect(page.status).toBe(415);
      expect(page.html).toContain('application/x-www-form-urlencoded');
    });
  });

  it('answers 422 for a specimen document whose face_image is not a JPEG', async () => {
    const res = await send('POST', '/app/v1/specimen-documents', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ face_image: Buffer.from('this is not an image').toString('base64') }),
    });
    expect(res.status).toBe(422);
    expect(res.json.error_description).toMatch(/face_image/);
  });

  describe('merchant fields that cannot be null', () => {
    const patch = (fields: Record<string, unknown>) => admin.call('PATCH', `/admin/v1/merchants/${merchant.client_id}`, fields);

    it.each(['name', 'redirect_uris', 'psd2', 'token_endpoint_auth_method', 'id_token_signed_response_alg', 'backchannel_token_delivery_mode'])(
      'PATCH %s: null answers 400 naming the field',
      async (field) => {
        const res = await patch({ [field]: null });
        expect(res.status).toBe(400);
        expect(res.body.fields).toHaveProperty(field);
        expect(res.body.error_description).toContain(field);
      },
    );

    it('POST with a null psd2 answers 400 naming the field', async () => {
      const res = await admin.call('POST', '/admin/v1/merchants', { name: 'N', redirect_uris: [REDIRECT_URI], psd2: null });
      expect(res.status).toBe(400);
      expect(res.body.fields).toHaveProperty('psd2');
    });

    it.each([
      'scope',
      'eid_schemes',
      'jwks_uri',
      'jwks',
      'encryption_key_id',
      'request_object_key_id',
      'request_object_signing_alg',
      'backchannel_client_notification_endpoint',
      'id_token_encrypted_response_alg',
      'userinfo_encrypted_response_alg',
    ])('PATCH %s: null clears the field', async (field) => {
      const res = await patch({ [field]: null });
      expect(res.status).toBe(200);
      expect(res.body[field]).toBeNull();
    });
  });
});
