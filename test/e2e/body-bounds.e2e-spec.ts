import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { duringHealthPolling } from '../support/health-probe.js';
import { authorizationRequest, discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { TestBrowser } from '../support/test-browser.js';

const JSON_TYPE = { 'content-type': 'application/json' };
/** An object of `n` keys no DTO declares. */
const unknownKeys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`unknown_${i}`, i]));

/**
 * Request bodies are bounded before anything validates them: by size per route, and by entries and depth
 * everywhere, so no body can hold the event loop (validation cost the square of an object's keys: 150,000
 * unknown keys took 14-30 s of CPU while /health/live did not answer), and a refusal stays short.
 */
describe('request body bounds', () => {
  let t: TestApp;
  let merchant: { client_id: string; client_secret: string };
  let config: client.Configuration;
  let sessionToken: string;

  const send = async (method: string, path: string, body: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...JSON_TYPE, ...headers }, body });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) as Record<string, any> };
  };
  const admin = () => ({ authorization: `Bearer ${t.adminToken}` });
  const session = () => ({ authorization: `Bearer ${sessionToken}` });

  /** A verifier app session, opened from the link the broker page shows. */
  const openSession = async () => {
    const browser = new TestBrowser(t.baseUrl);
    const page = await browser.follow(await browser.get((await authorizationRequest(config, { login_hint: 'eid:document-verifier' })).url.toString()));
    const link = /<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(page.html)![1].replace(/&amp;/g, '&');
    const opened = await send('POST', '/app/v1/sessions', JSON.stringify({ qr_token: new URL(link).searchParams.get('session') }));
    return opened.json.session_token as string;
  };

  beforeAll(async () => {
    t = await startTestApp();
    merchant = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Bounds', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    config = await discover(`${t.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
    sessionToken = await openSession();
  });
  afterAll(() => t?.close());

  describe('150,000 unknown keys answer 4xx at once, with one short error, while /health/live answers', () => {
    const keys = unknownKeys(150_000);
    const id = randomUUID();
    it.each<[string, string, () => unknown, () => Record<string, string>]>([
      ['POST', '/app/v1/sessions', () => keys, () => ({})],
      ['POST', '/app/v1/ciba/requests/pending', () => keys, () => ({})],
      ['POST', `/app/v1/ciba/requests/${id}/status`, () => keys, () => ({})],
      ['POST', `/app/v1/ciba/requests/${id}/approve`, () => keys, () => ({})],
      ['POST', `/app/v1/ciba/requests/${id}/complete`, () => keys, () => ({})],
      ['POST', `/app/v1/ciba/requests/${id}/decline`, () => keys, () => ({})],
      ['POST', '/app/v1/session/chip', () => ({ sod: 'AAAA', data_groups: keys }), session],
      ['POST', '/app/v1/session/face', () => keys, session],
      ['POST', '/app/v1/specimen-documents', () => keys, () => ({})],
      ['POST', '/admin/v1/merchants', () => keys, admin],
      ['PATCH', '/admin/v1/merchants/{merchant}', () => keys, admin],
      ['POST', '/admin/v1/tokens', () => keys, admin],
      ['POST', '/admin/v1/eid-schemes', () => ({ id: 'bounds', labels: keys }), admin],
      [
        'POST',
        '/auth_files/fetch.html?tid=x',
        () => ({ params: { type: 'application/pdf' }, addendum: keys }),
        () => ({ authorization: `Basic ${Buffer.from(`${merchant.client_id}:${merchant.client_secret}`).toString('base64')}` }),
      ],
    ])(
      '%s %s',
      async (method, path, body, headers) => {
        const payload = JSON.stringify(body());
        const { result: res, longestHealthGapMs } = await duringHealthPolling(t.baseUrl, () =>
          send(method, path.replace('{merchant}', merchant.client_id), payload, headers()),
        );
        // Before the bounds: 14-30 s of CPU per request, the health answers waiting as long, and every key in the answer.
        // Refused by the bound on entries (or the size limit), before validation ever sees a key: the cost is the
        // bound's single pass, measured by npm run bench:unknown-keys; here only a stall of seconds would show.
        expect([400, 413]).toContain(res.status);
        if (res.status === 400) expect(res.text).toContain('more than 1000 fields and array elements');
        expect(res.text.length).toBeLessThan(400);
        expect(longestHealthGapMs).toBeLessThan(5_000);
      },
      60_000,
    );
  });

  it('names at most 10 fields in a refusal, never the whole input', async () => {
    const longKeys = Object.fromEntries(Array.from({ length: 900 }, (_, i) => [`${'k'.repeat(200)}${i}`, i]));
    const res = await send('PATCH', `/admin/v1/merchants/${merchant.client_id}`, JSON.stringify({ name: 'Still valid', ...longKeys }), admin());
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.fields)).toHaveLength(10);
    for (const field of Object.keys(res.json.fields)) expect(field.length).toBeLessThanOrEqual(101);
    expect(res.json.error_description).toMatch(/; and 890 more fields$/);
    expect(res.text.length).toBeLessThan(8_000);
  });

  it.each([
    ['deep nesting (100,000 levels)', '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000), /nests deeper than 16 levels/],
    ['17 levels', '{"a":'.repeat(17) + '1' + '}'.repeat(17), /nests deeper than 16 levels/],
    ['a wide array (3 million elements)', `[${'0,'.repeat(3_000_000)}0]`, /more than 1000 fields and array elements/],
    [
      '1,001 entries in nested objects',
      JSON.stringify({ sod: 'AAAA', data_groups: { '1': 'AAAA', ...unknownKeys(500) }, x: unknownKeys(499) }),
      /more than 1000 fields and array elements/,
    ],
  ])('refuses %s with one short 400, never a 5xx', async (_name, body, description) => {
    const res = await send('POST', '/app/v1/session/chip', body, session());
    expect([res.status, res.json.error]).toEqual([400, 'invalid_request']);
    expect(res.json.error_description).toMatch(description);
  });

  it('lets a body within the bounds through to validation (16 levels, 1,000 entries)', async () => {
    const deepest = await send('PATCH', `/admin/v1/merchants/${merchant.client_id}`, '{"a":'.repeat(16) + '1' + '}'.repeat(16), admin());
    expect(deepest.status).toBe(400);
    expect(deepest.json.fields).toHaveProperty('a');
    const widest = await send('PATCH', `/admin/v1/merchants/${merchant.client_id}`, JSON.stringify({ name: 'x', ...unknownKeys(999) }), admin());
    expect(widest.status).toBe(400);
    expect(widest.json.error_description).toMatch(/unknown_0: property unknown_0 should not exist; .*; and 989 more fields$/);
  });

  describe('body size, by route', () => {
    it.each([
      ['/app/v1/sessions', { qr_token: 'x'.repeat(10_000) }],
      ['/app/v1/ciba/requests/pending', { app_id: 'x'.repeat(10_000) }],
      ['/app/v1/session/ca-challenge', { dg14: 'A'.repeat(40_000) }],
      ['/app/v1/specimen-documents', { face_image: 'A'.repeat(1_100_000) }],
      ['/app/v1/session/chip', { sod: 'A'.repeat(9 * 1024 * 1024) }],
    ])('%s answers 413 over its limit', async (path, body) => {
      const res = await send('POST', path, JSON.stringify(body), session());
      expect([res.status, res.json.error]).toEqual([413, 'payload_too_large']);
    });

    it('cuts a chunked body off at its limit in the app API: 413 at once and the connection closed, however long the client goes on', async () => {
      const answer = await new Promise<{ status?: number; connection?: string }>((resolve) => {
        const req = request(`${t.baseUrl}/app/v1/session/ca-challenge`, { method: 'POST', agent: false, headers: { ...JSON_TYPE, ...session() } }, (res) => {
          clearInterval(sending);
          resolve({ status: res.statusCode, connection: res.headers.connection });
          req.destroy();
        });
        req.on('error', () => undefined);
        // No Content-Length: chunked, and never ended.
        req.write('{"dg14":"');
        const sending = setInterval(() => req.write('A'.repeat(16 * 1024)), 5);
      });
      expect(answer).toEqual({ status: 413, connection: 'close' });
    });

    it('keeps megabytes for the chip and the face steps', async () => {
      // Within the limit these reach the step itself: its own checks answer (too long a field, the session state), not 413.
      const chip = await send('POST', '/app/v1/session/chip', JSON.stringify({ sod: 'A'.repeat(3_000_000), data_groups: { '1': 'AAAA' } }), session());
      expect([chip.status, chip.json.fields]).toEqual([400, { sod: [expect.stringContaining('sod must be shorter')] }]);
      const frames = Array.from({ length: 9 }, (_, step) => ({
        challenge_id: 'c',
        step: Math.min(step, 4),
        image: 'A'.repeat(600_000),
        captured_at: new Date().toISOString(),
      }));
      const face = await send('POST', '/app/v1/session/face', JSON.stringify({ challenge_id: 'c', frames }), session());
      expect([face.status, face.json.error]).toEqual([409, 'wrong_session_state']);
    });
  });

  it('answers 415 to JSON in another charset than UTF-8 (RFC 8259 §8.1)', async () => {
    const res = await fetch(`${t.baseUrl}/admin/v1/tokens`, {
      method: 'POST',
      headers: { ...admin(), 'content-type': 'application/json; charset=utf-16le' },
      body: Buffer.from('{"role":"support","label":"x"}', 'utf16le'),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: 'unsupported_media_type' });
  });
});
