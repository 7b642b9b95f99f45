import { adminClient } from '../support/admin-client.js';
import { REDIRECT_URI } from '../support/oidc-flow.js';
import { productionTestEnv, startTestApp, type TestApp } from '../support/test-app.js';

const FIELD = 'backchannel_client_notification_endpoint';

/**
 * Addresses the CIBA outbox refuses at every connection (private, link-local, IPv4-mapped, loopback in
 * production, and the same written as an integer or shorthand, or named). Before, they were registered and
 * every callback then failed silently.
 */
const INSIDE = [
  'https://10.0.0.1/ciba',
  'https://169.254.169.254/latest',
  'https://[::ffff:a9fe:a9fe]/ciba',
  'https://2130706433/ciba',
  'https://127.1/ciba',
  'https://metadata.google.internal/computeMetadata/v1/',
];

const ping = (endpoint: string, redirectUri = REDIRECT_URI) => ({
  name: 'Shop',
  redirect_uris: [redirectUri],
  backchannel_token_delivery_mode: 'ping',
  [FIELD]: endpoint,
});

function expectRefused(res: { status: number; body: any }, endpoint: string): void {
  expect([endpoint, res.status]).toEqual([endpoint, 400]);
  expect(res.body).toMatchObject({ error: 'invalid_request' });
  expect(Object.keys(res.body.fields)).toEqual([FIELD]);
  expect(res.body.error_description).toContain(FIELD);
}

describe('CIBA callback addresses at registration', () => {
  describe('customer-test (loopback reachable, for a local receiver)', () => {
    let t: TestApp;
    const admin = () => adminClient(t.baseUrl, t.adminToken);
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t?.close());

    it.each(INSIDE)('refuses %s on create and on update, naming the field; the update changes nothing', async (endpoint) => {
      expectRefused(await admin().call('POST', '/admin/v1/merchants', ping(endpoint)), endpoint);
      const m = await admin().createMerchant(ping('https://shop.example/ciba'));
      expectRefused(await admin().call('PATCH', `/admin/v1/merchants/${m.client_id}`, { [FIELD]: endpoint }), endpoint);
      expect((await admin().call('GET', `/admin/v1/merchants/${m.client_id}`)).body[FIELD]).toBe('https://shop.example/ciba');
    });

    it('takes a loopback receiver written as such, and a public host', async () => {
      const m = await admin().createMerchant(ping('http://127.0.0.1:9/ciba-callback'));
      for (const endpoint of ['http://localhost:9/ciba', 'https://[::1]:9/ciba', 'https://shop.example/ciba', 'https://93.184.216.34/ciba'])
        expect((await admin().call('PATCH', `/admin/v1/merchants/${m.client_id}`, { [FIELD]: endpoint })).status).toBe(200);
    });
  });

  describe('production', () => {
    let t: TestApp;
    let admin: ReturnType<typeof adminClient>;
    beforeAll(async () => {
      t = await startTestApp({
        env: {
          ...productionTestEnv(),
        },
      });
      admin = adminClient(`http://127.0.0.1:${t.env.PORT}`, t.adminToken);
    });
    afterAll(() => t?.close());

    it('refuses each inside address, loopback included, on create and on update', async () => {
      // Production redirect URIs are https.
      const shop = (endpoint: string) => ping(endpoint, 'https://shop.example/callback');
      const m = await admin.createMerchant(shop('https://shop.example/ciba'));
      for (const endpoint of [...INSIDE, 'https://127.0.0.1/ciba', 'https://[::1]/ciba', 'https://localhost/ciba']) {
        expectRefused(await admin.call('POST', '/admin/v1/merchants', shop(endpoint)), endpoint);
        expectRefused(await admin.call('PATCH', `/admin/v1/merchants/${m.client_id}`, { [FIELD]: endpoint }), endpoint);
      }
    });
  });
});
