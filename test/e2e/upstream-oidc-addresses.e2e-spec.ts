import type * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { errorForMerchant, upstreamLogin } from '../support/upstream-login.js';
import { startUpstream, type TestUpstream } from '../support/upstream-provider.js';

const scheme = (id: string, issuer: string, environment: string) => ({
  id,
  labels: { en_GB: id },
  environment,
  issuer,
  client_id: 'broker',
  client_secret: 'upstream-secret-for-the-broker-0123456789',
});

/**
 * SSRF: an admin-registered issuer (or the endpoints its discovery names) is fetched from our servers, so
 * a production scheme never reaches loopback, private or reserved addresses; the test upstream on
 * 127.0.0.2 is only reachable for a customer-test scheme.
 */
describe('upstream schemes and the addresses they may reach', () => {
  let t: TestApp;
  let upstream: TestUpstream;
  const admin = () => adminClient(t.baseUrl, t.adminToken);
  const loginCount = async () => Number((await t.dataSource.query('SELECT count(*)::int AS n FROM brokered_logins'))[0].n);

  beforeAll(async () => {
    t = await startTestApp();
    upstream = await startUpstream([{ sub: 'kari', claims: {} }], `${t.baseUrl}/its/eid/callback`);
  });
  afterAll(async () => {
    await upstream?.close();
    await t?.close();
  });

  it('refuses a production scheme whose issuer is a loopback, private or metadata address, with the reason', async () => {
    for (const issuer of [
      'http://169.254.169.254/latest',
      'http://10.0.0.5',
      'https://192.168.1.1/oidc',
      'http://localhost:9000',
      'http://[::1]:9000',
      upstream.issuer,
    ]) {
      const res = await admin().call('POST', '/admin/v1/eid-schemes', scheme('inside', issuer, 'production'));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_request' });
      expect(res.text).toContain('loopback, private or reserved address');
    }
    const turned = await admin().call('POST', '/admin/v1/eid-schemes', scheme('testonly', upstream.issuer, 'customer-test'));
    expect(turned.status).toBe(201);
    expect((await admin().call('PATCH', '/admin/v1/eid-schemes/testonly', { environment: 'production' })).status).toBe(400);
  });

  it('a production scheme whose issuer name leads to a private address is never fetched: the merchant gets an error, nothing is stored', async () => {
    // The API refuses a literal address; a host name resolving to one is only caught at connect time. The row
    // stands for that case: its issuer is the live test upstream, which must see no request at all.
    const created = await admin().call('POST', '/admin/v1/eid-schemes', scheme('rebound', upstream.issuer, 'customer-test'));
    expect(created.status).toBe(201);
    await t.dataSource.query(`UPDATE eid_schemes SET environment = 'production', updated_at = now() WHERE id = 'rebound'`);
    const merchant = await admin().createMerchant({ name: 'Shop', redirect_uris: [REDIRECT_URI], eid_schemes: ['rebound'] });
    const rp: client.Configuration = await discover(`${t.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
    upstream.requests = 0;
    const before = await loginCount();
    const { browser, page } = await upstreamLogin(t.baseUrl, rp);
    expect(page.status).toBe(200);
    expect((await errorForMerchant(browser, page)).get('error')).toBe('temporarily_unavailable');
    expect(upstream.requests).toBe(0);
    expect(await loginCount()).toBe(before);
  });
});
