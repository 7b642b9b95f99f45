import { MerchantsService } from '../../src/merchants/merchants.service.js';
import { adminClient } from '../support/admin-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('merchant registration API (/admin/v1/merchants)', () => {
  let t: TestApp;
  let admin: ReturnType<typeof adminClient>;

  beforeAll(async () => {
    t = await startTestApp();
    admin = adminClient(t.baseUrl, t.adminToken);
  });
  afterAll(() => t?.close());

  it('creates a merchant with only name and redirect_uris and applies the documented defaults', async () => {
    const res = await admin.call('POST', '/admin/v1/merchants', { name: 'Shop', redirect_uris: ['https://shop.example/cb'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Shop',
      redirect_uris: ['https://shop.example/cb'],
      scope: null,
      eid_schemes: null,
      psd2: false,
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'RS256',
      backchannel_token_delivery_mode: 'poll',
      enabled: true,
    });
    expect(res.body.client_id).toMatch(/^m_[A-Za-z0-9_-]{16}$/);
    expect(res.body.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('reads a merchant without its secret, and lists merchants page by page', async () => {
    const created = await admin.createMerchant({ name: 'Reader', redirect_uris: ['https://r.example/cb'] });
    const got = await admin.call('GET', `/admin/v1/merchants/${created.client_id}`);
    expect(got.status).toBe(200);
    expect(got.body.client_id).toBe(created.client_id);
    expect(got.body).not.toHaveProperty('client_secret');
    expect(got.text).not.toContain(created.client_secret);

    await admin.createMerchant({ name: 'Third', redirect_uris: ['https://t.example/cb'] });
    const page1 = await admin.call('GET', '/admin/v1/merchants?page=1&per_page=2');
    const page2 = await admin.call('GET', '/admin/v1/merchants?page=2&per_page=2');
    expect(page1.status).toBe(200);
    expect(page1.body.items).toHaveLength(2);
    expect(page1.body.total).toBeGreaterThanOrEqual(3);
    expect(page2.body.page).toBe(2);
    const ids = [...page1.body.items, ...page2.body.items].map((m: { client_id: string }) => m.client_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await admin.call('GET', '/admin/v1/merchants?per_page=1000')).status).toBe(400);
  });

  it('updates only the fields sent and records who changed what, without secrets', async () => {
    const m = await admin.createMerchant({ name: 'Before', redirect_uris: ['https://u.example/cb'] });
    const res = await admin.call('PATCH', `/admin/v1/merchants/${m.client_id}`, {
      name: 'After',
      id_token_signed_response_alg: 'ES256',
      scope: 'openid profile ageverify18',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'After', id_token_signed_response_alg: 'ES256', scope: 'openid profile ageverify18' });
    expect(res.body.redirect_uris).toEqual(['https://u.example/cb']);

    const audit = await admin.call('GET', `/admin/v1/audit?target_type=merchant&target_id=${m.client_id}`);
    expect(audit.status).toBe(200);
    expect(audit.body.items.map((r: { action: string }) => r.action)).toEqual(['merchant.update', 'merchant.create']);
    expect(audit.body.items[0].changes).toEqual({ name: 'After', id_token_signed_response_alg: 'ES256', scope: 'openid profile ageverify18' });
    expect(audit.body.items[0].actor).toContain('ADMIN_API_TOKEN');
    expect(audit.text).not.toContain(m.client_secret);
  });

  it('rotates the secret: the new one verifies, the old one no longer does', async () => {
    const m = await admin.createMerchant({ name: 'Rotator', redirect_uris: ['https://rot.example/cb'] });
    const service = t.app.get(MerchantsService);
    expect(await service.verifySecret(m.client_id, m.client_secret)).toBe(true);
    const res = await admin.call('POST', `/admin/v1/merchants/${m.client_id}/secret`);
    expect(res.status).toBe(200);
    expect(res.body.client_secret).not.toBe(m.client_secret);
    expect(await service.verifySecret(m.client_id, res.body.client_secret)).toBe(true);
    expect(await service.verifySecret(m.client_id, m.client_secret)).toBe(false);
    const audit = await admin.call('GET', `/admin/v1/audit?target_id=${m.client_id}`);
    expect(audit.body.items[0].action).toBe('merchant.rotate_secret');
    expect(audit.text).not.toContain(res.body.client_secret);
  });

  it('disables and enables a merchant; a disabled merchant does not authenticate', async () => {
    const m = await admin.createMerchant({ name: 'Toggle', redirect_uris: ['https://tg.example/cb'] });
    const service = t.app.get(MerchantsService);
    const off = await admin.call('POST', `/admin/v1/merchants/${m.client_id}/disable`);
    expect(off.status).toBe(200);
    expect(off.body.enabled).toBe(false);
    expect(await service.verifySecret(m.client_id, m.client_secret)).toBe(false);
    expect(await service.findEnabled(m.client_id)).toBeUndefined();
    const on = await admin.call('POST', `/admin/v1/merchants/${m.client_id}/enable`);
    expect(on.body.enabled).toBe(true);
    expect(await service.verifySecret(m.client_id, m.client_secret)).toBe(true);
  });

  it('stores the merchant secret sealed, never in clear', async () => {
    const m = await admin.createMerchant({ name: 'Sealed', redirect_uris: ['https://s.example/cb'] });
    const rows = await t.dataSource.query('SELECT * FROM merchants WHERE client_id = $1', [m.client_id]);
    expect(rows).toHaveLength(1);
    const rowText = JSON.stringify(rows[0]);
    expect(rowText).not.toContain(m.client_secret);
    expect(rows[0].client_secret_sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    const everything = JSON.stringify(await t.dataSource.query('SELECT * FROM audit_records'));
    expect(everything).not.toContain(m.client_secret);
  });

  describe('bad input gets 400 with a message per field', () => {
    const cases: [string, Record<string, unknown> | string, string][] = [
      ['a redirect URI that is not a URL', { name: 'x', redirect_uris: ['not a url'] }, 'redirect_uris'],
      ['a redirect URI with a fragment', { name: 'x', redirect_uris: ['https://a.example/cb#frag'] }, 'redirect_uris'],
      ['plain http to a non-local host', { name: 'x', redirect_uris: ['http://shop.example/cb'] }, 'redirect_uris'],
      ['an unknown field', { name: 'x', redirect_uris: ['https://a.example/cb'], colour: 'red' }, 'colour'],
      ['a wrong enum value', { name: 'x', redirect_uris: ['https://a.example/cb'], id_token_signed_response_alg: 'HS256' }, 'id_token_signed_response_alg'],
      ['a missing name', { redirect_uris: ['https://a.example/cb'] }, 'name'],
      ['no redirect URIs', { name: 'x', redirect_uris: [] }, 'redirect_uris'],
      ['an unknown scope', { name: 'x', redirect_uris: ['https://a.example/cb'], scope: 'openid wizard' }, 'scope'],
      [
        'encryption without a key',
        { name: 'x', redirect_uris: ['https://a.example/cb'], id_token_encrypted_response_alg: 'RSA-OAEP-256' },
        'id_token_encrypted_response_alg',
      ],
      [
        'push delivery without an endpoint',
        { name: 'x', redirect_uris: ['https://a.example/cb'], backchannel_token_delivery_mode: 'push' },
        'backchannel_client_notification_endpoint',
      ],
      ['a jwks without keys', { name: 'x', redirect_uris: ['https://a.example/cb'], jwks: { nokeys: true } }, 'jwks.keys'],
    ];
    it.each(cases)('%s', async (_label, body, field) => {
      const res = await admin.call('POST', '/admin/v1/merchants', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(Object.keys(res.body.fields)).toContain(field);
      expect(res.body.error_description).toContain(field);
    });

    it('malformed JSON', async () => {
      const res = await admin.call('POST', '/admin/v1/merchants', '{"name": ');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_request', error_description: 'request body is not valid JSON' });
      expect(res.text).not.toMatch(/at .*\.js/);
    });

    it('an update that breaks a cross-field rule changes nothing', async () => {
      const m = await admin.createMerchant({ name: 'Keep', redirect_uris: ['https://k.example/cb'] });
      const res = await admin.call('PATCH', `/admin/v1/merchants/${m.client_id}`, { name: 'Changed', backchannel_token_delivery_mode: 'ping' });
      expect(res.status).toBe(400);
      expect((await admin.call('GET', `/admin/v1/merchants/${m.client_id}`)).body.name).toBe('Keep');
    });
  });

  it('answers 404 for an unknown merchant on every route', async () => {
    for (const [method, path] of [
      ['GET', '/admin/v1/merchants/m_unknown'],
      ['PATCH', '/admin/v1/merchants/m_unknown'],
      ['POST', '/admin/v1/merchants/m_unknown/secret'],
      ['POST', '/admin/v1/merchants/m_unknown/disable'],
    ]) {
      const res = await admin.call(method, path, method === 'PATCH' ? { name: 'x' } : undefined);
      expect([method, path, res.status, res.body.error]).toEqual([method, path, 404, 'not_found']);
    }
  });

  describe('admin authentication', () => {
    it('answers 401 without a token or with a wrong one', async () => {
      expect((await admin.call('GET', '/admin/v1/merchants', undefined, '')).status).toBe(401);
      const wrong = await admin.call('GET', '/admin/v1/merchants', undefined, 'not-the-token');
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toBe('unauthorized');
    });

    it('gives the support role read access only, and a revoked token stops working', async () => {
      const issued = await admin.call('POST', '/admin/v1/tokens', { role: 'support', label: 'desk' });
      expect(issued.status).toBe(201);
      const support = adminClient(t.baseUrl, issued.body.token);
      const m = await admin.createMerchant({ name: 'Seen', redirect_uris: ['https://seen.example/cb'] });
      expect((await support.call('GET', '/admin/v1/merchants')).status).toBe(200);
      expect((await support.call('GET', `/admin/v1/merchants/${m.client_id}`)).status).toBe(200);
      expect((await support.call('GET', '/admin/v1/audit')).status).toBe(200);
      for (const [method, path, body] of [
        ['POST', '/admin/v1/merchants', { name: 'x', redirect_uris: ['https://x.example/cb'] }],
        ['PATCH', `/admin/v1/merchants/${m.client_id}`, { name: 'y' }],
        ['POST', `/admin/v1/merchants/${m.client_id}/secret`, undefined],
        ['POST', `/admin/v1/merchants/${m.client_id}/disable`, undefined],
        ['POST', '/admin/v1/tokens', { role: 'admin', label: 'escalate' }],
      ] as const) {
        const res = await support.call(method, path, body);
        expect([path, res.status, res.body.error]).toEqual([path, 403, 'forbidden']);
      }
      expect((await admin.call('GET', `/admin/v1/merchants/${m.client_id}`)).body.name).toBe('Seen');
      const tokens = await admin.call('GET', '/admin/v1/tokens');
      expect(JSON.stringify(tokens.body)).not.toContain(issued.body.token);
      expect((await admin.call('DELETE', `/admin/v1/tokens/${issued.body.id}`)).status).toBe(204);
      expect((await support.call('GET', '/admin/v1/merchants')).status).toBe(401);
    });
  });
});
