import * as client from 'openid-client';
import { addLogSink, setLogLevel } from '../../src/common/logging/logger.js';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { errorForMerchant, upstreamLogin, walk } from '../support/upstream-login.js';
import { startUpstream, type TestUpstream } from '../support/upstream-provider.js';

const KARI = { sub: 'kari', claims: { name: 'Kari Nordmann' } };
/** Every character RFC 6749 2.3.1 form-encodes that a non-decoding upstream then sees as %2D, %5F, %2E, %7E. */
const UNRESERVED_SECRET = 'post-secret_with.all~four-0123456789abcdef';

/**
 * What real upstreams do that the spec's happy path does not: glewlwyd's auth_time 0, an upstream that goes
 * down between our redirect and the code exchange, and one that does not form-decode Basic credentials.
 */
describe('upstream OpenID Connect quirks', () => {
  let t: TestApp;
  const lines: string[] = [];
  let stopLogs: () => void;
  const admin = () => adminClient(t.baseUrl, t.adminToken);
  const upstreams: TestUpstream[] = [];

  async function upstream(options: Parameters<typeof startUpstream>[2] = {}): Promise<TestUpstream> {
    const started = await startUpstream([KARI], `${t.baseUrl}/its/eid/callback`, options);
    upstreams.push(started);
    return started;
  }

  /** A scheme at the upstream and a merchant offered only that scheme (so picking it is automatic). */
  async function schemeAndMerchant(id: string, up: TestUpstream, fields: Record<string, unknown> = {}): Promise<client.Configuration> {
    const body = {
      id,
      labels: { en_GB: id },
      environment: 'customer-test',
      issuer: up.issuer,
      client_id: up.clientId,
      client_secret: up.clientSecret,
      scope: 'openid profile',
      claim_mappers: [{ type: 'copy', from: 'name' }],
      ...fields,
    };
    const created = await admin().call('POST', '/admin/v1/eid-schemes', body);
    if (created.status !== 201) throw new Error(`scheme creation failed: ${created.status} ${created.text}`);
    const merchant = await admin().createMerchant({ name: `Shop ${id}`, redirect_uris: [REDIRECT_URI], eid_schemes: [id] });
    return discover(`${t.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
  }

  async function idToken(rp: client.Configuration, extra: Record<string, string> = {}) {
    const { request, page } = await upstreamLogin(t.baseUrl, rp, extra);
    if (!page.location?.startsWith(REDIRECT_URI)) throw new Error(`no redirect to the merchant: ${page.status} ${page.html.slice(0, 300)}`);
    const tokens = await client.authorizationCodeGrant(rp, new URL(page.location), {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
      maxAge: extra.max_age ? Number(extra.max_age) : undefined,
    });
    return tokens.claims()!;
  }

  const logged = (msg: string) => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === msg);

  beforeAll(async () => {
    stopLogs = addLogSink((line) => lines.push(line), { capture: true });
    t = await startTestApp();
    setLogLevel('info');
  });
  afterAll(async () => {
    stopLogs();
    setLogLevel('silent');
    for (const up of upstreams) await up?.close();
    await t?.close();
  });

  describe('auth_time', () => {
    let up: TestUpstream;
    let rp: client.Configuration;
    beforeAll(async () => {
      up = await upstream();
      rp = await schemeAndMerchant('glewlwyd-like', up);
    });

    for (const [name, value] of [
      ['0', 0],
      ['far in the future', () => now() + 86_400],
      ['missing', undefined],
    ] as const) {
      it(`an upstream auth_time ${name}, the merchant asking max_age=600: the ID token's auth_time is the callback time`, async () => {
        up.next = { action: 'login', user: 'kari', tamper: undefined, authTime: typeof value === 'function' ? value() : value };
        const before = now();
        const claims = await idToken(rp, { max_age: '600' });
        expect(up.lastAuthorization?.max_age).toBe('600');
        expect(claims.auth_time).toBeGreaterThanOrEqual(before - 1);
        expect(claims.auth_time).toBeLessThanOrEqual(now() + 1);
      });
    }

    // openid-client refuses these as a malformed ID token (OpenID Connect Core 2: a non-negative JSON number), before our rule sees them.
    for (const [name, value] of [
      ['negative', -5],
      ['not a number', '1700000000'],
    ] as const) {
      it(`an upstream auth_time ${name}: the ID token is refused, the merchant gets access_denied, never a 1970 time`, async () => {
        up.next = { action: 'login', user: 'kari', tamper: undefined, authTime: value };
        const { browser, page } = await upstreamLogin(t.baseUrl, rp, { max_age: '600' });
        expect((await errorForMerchant(browser, page)).get('error')).toBe('access_denied');
      });
    }

    it('an upstream login a little before our redirect (clock skew) is clamped to the redirect: it cannot have been earlier', async () => {
      const before = now();
      up.next = { action: 'login', user: 'kari', tamper: undefined, authTime: before - 120 };
      const authTime = (await idToken(rp, { max_age: '600' })).auth_time!;
      expect(authTime).toBeGreaterThanOrEqual(before);
      expect(authTime).toBeLessThanOrEqual(now());
    });

    it("an upstream's own older session (single sign-on) keeps its time within max_age", async () => {
      const earlier = now() - 1800;
      up.next = { action: 'login', user: 'kari', tamper: undefined, authTime: earlier };
      expect((await idToken(rp, { max_age: '3600' })).auth_time).toBe(earlier);
    });

    it('an upstream login older than max_age (it ignored the max_age we passed on): refused, never dated later', async () => {
      up.next = { action: 'login', user: 'kari', tamper: undefined, authTime: now() - 3600 };
      const { browser, page } = await upstreamLogin(t.baseUrl, rp, { max_age: '600' });
      expect((await errorForMerchant(browser, page)).get('error')).toBe('access_denied');
      expect(logged('upstream login older than the max_age asked for').at(-1)).toMatchObject({ scheme: 'glewlwyd-like', max_age: 600 });
    });
  });

  it('an upstream that goes down between the redirect and the code exchange: temporarily_unavailable, the log names ECONNREFUSED', async () => {
    const up = await upstream();
    const rp = await schemeAndMerchant('flaky', up);
    // As far as our callback: the upstream has answered the browser with a code, not yet exchanged.
    const request = await authorizationRequest(rp);
    const browser = new TestBrowser(t.baseUrl);
    const callbackPage = await walk(browser, request.url.toString(), `${t.baseUrl}/its/eid/callback`);
    const callback = new URL(callbackPage.location!, callbackPage.url).toString();
    await up.down();
    const page = await walk(browser, callback);
    expect((await errorForMerchant(browser, page)).get('error')).toBe('temporarily_unavailable');
    const line = logged('upstream unreachable').at(-1);
    expect(line).toMatchObject({ scheme: 'flaky', code: 'ECONNREFUSED', host: new URL(up.issuer).host });
    const code = new URL(callback).searchParams.get('code')!;
    for (const l of lines) expect(l).not.toContain(code);
    expect(JSON.stringify(line)).not.toContain(up.clientSecret);
  });

  it('an upstream token endpoint answering 503: temporarily_unavailable, the log names the status', async () => {
    const up = await upstream();
    const rp = await schemeAndMerchant('gateway-503', up);
    up.next.tokenStatus = 503;
    const { browser, page } = await upstreamLogin(t.baseUrl, rp);
    expect((await errorForMerchant(browser, page)).get('error')).toBe('temporarily_unavailable');
    expect(logged('upstream unreachable').at(-1)).toMatchObject({ scheme: 'gateway-503', code: 'http_503', host: new URL(up.issuer).host });
  });

  describe('an upstream that does not form-decode client_secret_basic (as glewlwyd)', () => {
    let up: TestUpstream;
    beforeAll(async () => {
      up = await upstream({
        rawBasicCredentials: true,
        clients: () => [{ client_id: 'broker-post', client_secret: UNRESERVED_SECRET, token_endpoint_auth_method: 'client_secret_post' }],
      });
    });

    it('client_secret_basic with a secret holding - _ . ~ fails cleanly: an error for the merchant, the log says what to pick', async () => {
      const rp = await schemeAndMerchant('raw-basic', up, {
        client_id: 'broker',
        client_secret: up.clientSecret,
        token_endpoint_auth_method: 'client_secret_basic',
      });
      const { browser, page } = await upstreamLogin(t.baseUrl, rp);
      expect((await errorForMerchant(browser, page)).get('error')).toBe('access_denied');
      const line = logged('upstream answer refused').at(-1);
      expect(line).toMatchObject({ scheme: 'raw-basic', code: 'invalid_client' });
      expect(String(line?.hint)).toContain('client_secret_post');
    });

    it('a secret method without a client_secret is refused at registration, not sent unauthenticated', async () => {
      const base = { labels: { en_GB: 'x' }, environment: 'customer-test', issuer: up.issuer, client_id: 'broker-post' };
      for (const method of ['client_secret_post', 'client_secret_basic']) {
        const res = await admin().call('POST', '/admin/v1/eid-schemes', { ...base, id: `no-secret-${method.slice(14)}`, token_endpoint_auth_method: method });
        expect(res.status).toBe(400);
        expect(res.text).toContain(`${method} needs a client_secret`);
      }
      const pkjwt = await admin().call('POST', '/admin/v1/eid-schemes', { ...base, id: 'pkjwt-switch', token_endpoint_auth_method: 'private_key_jwt' });
      expect(pkjwt.status).toBe(201);
      const switched = await admin().call('PATCH', '/admin/v1/eid-schemes/pkjwt-switch', { token_endpoint_auth_method: 'client_secret_post' });
      expect(switched.status).toBe(400);
      expect(
        (
          await admin().call('PATCH', '/admin/v1/eid-schemes/pkjwt-switch', {
            token_endpoint_auth_method: 'client_secret_post',
            client_secret: UNRESERVED_SECRET,
          })
        ).status,
      ).toBe(200);
    });

    it('client_secret_post with the same kind of secret logs in', async () => {
      const rp = await schemeAndMerchant('raw-post', up, {
        client_id: 'broker-post',
        client_secret: UNRESERVED_SECRET,
        token_endpoint_auth_method: 'client_secret_post',
        userinfo: true,
      });
      expect(await idToken(rp, { scope: 'openid profile' })).toMatchObject({ eid_scheme: 'raw-post', name: 'Kari Nordmann' });
      const scheme = await admin().call('GET', '/admin/v1/eid-schemes/raw-post');
      expect(scheme.body).toMatchObject({ token_endpoint_auth_method: 'client_secret_post', client_secret_set: true });
    });
  });
});

function now(): number {
  return Math.floor(Date.now() / 1000);
}
