import * as client from 'openid-client';
import { addLogSink, setLogLevel } from '../../src/common/logging/logger.js';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { walk } from '../support/upstream-login.js';
import { startUpstream, type TestUpstream } from '../support/upstream-provider.js';

/** 28 characters and a `!`: `^(a+)+$` backtracks through every split of them (seconds of CPU on V8). */
const NESTED = '^(a+)+$';
const VALUE = `${'a'.repeat(28)}!`;
const NIN_MAPPER = { type: 'regex', from: 'nin', to: 'personal_number', pattern: '^NO(\\d{11})$', replacement: '$1' };
const NESTED_MAPPER = { type: 'regex', from: 'name', to: 'name', pattern: NESTED, replacement: '$1' };

/**
 * Regex claim mappers run on the event loop over values the upstream sends: a pattern that can backtrack
 * for seconds is refused by the admin API, and one stored anyway (a row from before the rule) gives no
 * claim without holding up the login.
 */
describe('upstream scheme regex mappers that could backtrack', () => {
  let t: TestApp;
  let upstream: TestUpstream;
  const admin = () => adminClient(t.baseUrl, t.adminToken);
  const scheme = (claimMappers: unknown[]) => ({
    id: 'slowbank',
    labels: { en_GB: 'Slow Bank ID' },
    environment: 'customer-test',
    issuer: upstream.issuer,
    client_id: upstream.clientId,
    client_secret: upstream.clientSecret,
    scope: 'openid profile nin',
    // The upstream releases profile and nin claims at its user-info endpoint only.
    userinfo: true,
    claim_mappers: claimMappers,
  });

  beforeAll(async () => {
    t = await startTestApp();
    upstream = await startUpstream([{ sub: 'kari', claims: { name: VALUE, nin: 'NO07038512345' } }], `${t.baseUrl}/its/eid/callback`);
  });
  afterAll(async () => {
    await upstream?.close();
    await t?.close();
  });

  it('refuses the pattern on create and update with a 400 naming the field', async () => {
    const created = await admin().call('POST', '/admin/v1/eid-schemes', scheme([NIN_MAPPER, NESTED_MAPPER]));
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ error: 'invalid_request' });
    expect(Object.keys(created.body.fields)).toEqual(['claim_mappers.1.pattern']);
    expect(created.body.fields['claim_mappers.1.pattern'][0]).toContain('backtrack');

    expect((await admin().call('POST', '/admin/v1/eid-schemes', scheme([NIN_MAPPER]))).status).toBe(201);
    const updated = await admin().call('PATCH', '/admin/v1/eid-schemes/slowbank', { claim_mappers: [NESTED_MAPPER] });
    expect(updated.status).toBe(400);
    expect(Object.keys(updated.body.fields)).toEqual(['claim_mappers.0.pattern']);
  });

  it('a stored one gives no claim and the login completes at once; the log names the field, not the value', async () => {
    await t.dataSource.query(`UPDATE eid_schemes SET claim_mappers = $1::jsonb, updated_at = now() WHERE id = 'slowbank'`, [
      JSON.stringify([NIN_MAPPER, NESTED_MAPPER]),
    ]);
    const merchant = await admin().createMerchant({ name: 'Shop', redirect_uris: [REDIRECT_URI], eid_schemes: ['slowbank'] });
    const rp = await discover(`${t.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
    const request = await authorizationRequest(rp, { scope: 'openid profile ssn' });
    const browser = new TestBrowser(t.baseUrl);
    const lines: string[] = [];
    const stop = addLogSink((line) => lines.push(line), { capture: true });
    setLogLevel('warn');
    let callbackMs: number;
    let page;
    try {
      const atCallback = await walk(browser, request.url.toString(), `${t.baseUrl}/its/eid/callback`);
      // The callback is where the upstream's claims are mapped: the old code held it (and every other request) for seconds.
      const started = performance.now();
      page = await walk(browser, new URL(atCallback.location!, atCallback.url).toString());
      callbackMs = performance.now() - started;
    } finally {
      setLogLevel('silent');
      stop();
    }
    expect(callbackMs).toBeLessThan(1500);
    const tokens = await client.authorizationCodeGrant(rp, new URL(page.location!), {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ eid_scheme: 'slowbank', personal_number: '07038512345' });
    expect(claims).not.toHaveProperty('name');
    const warning = lines.find((l) => l.includes('stored claim mappers break the current rules'));
    expect(warning).toContain('claim_mappers.1.pattern');
    expect(warning).toContain('slowbank');
    expect(lines.join('\n')).not.toContain(VALUE);
  });
});
