import { createHash } from 'node:crypto';
import { adminClient } from '../support/admin-client.js';
import { logoPng, startLogoServer, type LogoServer } from '../support/logo-server.js';
import { authorizationRequest, discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Merchant logo_uri (RFC 7591; issue 13): fetched once at registration, checked, served from our origin. */
describe('merchant logos', () => {
  let t: TestApp;
  let admin: ReturnType<typeof adminClient>;
  let logos: LogoServer;

  beforeAll(async () => {
    t = await startTestApp();
    admin = adminClient(t.baseUrl, t.adminToken);
    logos = await startLogoServer();
  });
  afterAll(async () => {
    await logos?.close();
    await t?.close();
  });

  const choicePage = async (m: { client_id: string; client_secret: string }) => {
    const config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    const browser = new TestBrowser(t.baseUrl);
    return (await browser.follow(await browser.get((await authorizationRequest(config)).url.toString()))).html;
  };

  it('fetches the logo once at registration and serves it from /its/assets/logos/<sha256>; the pages show it with alt text', async () => {
    const m = await admin.createMerchant({ name: 'Logo Shop', redirect_uris: [REDIRECT_URI], logo_uri: logos.url('/logo.png') });
    expect(m.logo_uri).toBe(logos.url('/logo.png'));
    const hash = sha256(logoPng());
    const html = await choicePage(m);
    expect(html).toContain(`<img class="merchant-logo" src="/its/assets/logos/${hash}" alt="Logo Shop">`);
    await choicePage(m);
    expect(logos.hits.get('/logo.png')).toBe(1);

    const served = await fetch(`${t.baseUrl}/its/assets/logos/${hash}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await served.arrayBuffer()).equals(logoPng())).toBe(true);
  });

  it('takes JPEG by its magic bytes, and serves it as image/jpeg', async () => {
    const m = await admin.createMerchant({ name: 'Jpeg Shop', redirect_uris: [REDIRECT_URI], logo_uri: logos.url('/logo.jpg') });
    const src = /src="(\/its\/assets\/logos\/[0-9a-f]{64})"/.exec(await choicePage(m))![1];
    expect((await fetch(`${t.baseUrl}${src}`)).headers.get('content-type')).toBe('image/jpeg');
  });

  it.each([
    ['/scripted.svg', /not a PNG, JPEG or WebP image \(SVG is refused/],
    ['/big.png', /larger than 256 KiB/],
    ['/page.html', /not a PNG, JPEG or WebP image/],
    ['/tiny.png', /8×8 pixels; each side must be 16 to 2048/],
    ['/moved.png', /answered HTTP 302, not 200 \(redirects are not followed\)/],
    ['/missing.png', /answered HTTP 404/],
  ])('refuses %s with a 400 naming logo_uri, and registers nothing', async (path, reason) => {
    const count = async () => (await admin.call('GET', '/admin/v1/merchants?per_page=1')).body.total as number;
    const before = await count();
    const res = await admin.call('POST', '/admin/v1/merchants', { name: 'Refused', redirect_uris: [REDIRECT_URI], logo_uri: logos.url(path) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', fields: { logo_uri: [expect.stringMatching(reason)] } });
    expect(res.body.error_description).toMatch(/^logo_uri: /);
    expect(await count()).toBe(before);
  });

  it('refuses an address nothing answers on, without saying more than that', async () => {
    const closed = await startLogoServer();
    const url = closed.url('/logo.png');
    await closed.close();
    const res = await admin.call('POST', '/admin/v1/merchants', { name: 'Gone', redirect_uris: [REDIRECT_URI], logo_uri: url });
    expect(res.status).toBe(400);
    expect(res.body.fields.logo_uri).toEqual(['could not be fetched (no answer, a refused address, or too slow)']);
  });

  it('a refused new logo keeps the old one; another replaces it; null removes it and its image stops being served', async () => {
    const m = await admin.createMerchant({ name: 'Changing Shop', redirect_uris: [REDIRECT_URI], logo_uri: logos.url('/other.png') });
    const first = sha256(logoPng(120, 60));
    const patch = (body: object) => admin.call('PATCH', `/admin/v1/merchants/${m.client_id}`, body);

    expect((await patch({ logo_uri: logos.url('/scripted.svg') })).status).toBe(400);
    expect(await choicePage(m)).toContain(`/its/assets/logos/${first}`);

    expect((await patch({ logo_uri: logos.url('/logo.png') })).body.logo_uri).toBe(logos.url('/logo.png'));
    expect(await choicePage(m)).toContain(`/its/assets/logos/${sha256(logoPng())}`);
    // Nobody names the first image any more: it is gone.
    expect((await fetch(`${t.baseUrl}/its/assets/logos/${first}`)).status).toBe(404);

    const cleared = await patch({ logo_uri: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.logo_uri).toBeNull();
    expect(await choicePage(m)).not.toContain('<img');
    // Another merchant still uses /logo.png's image (the first test): shared bytes stay served.
    expect((await fetch(`${t.baseUrl}/its/assets/logos/${sha256(logoPng())}`)).status).toBe(200);

    const audit = await admin.call('GET', `/admin/v1/audit?target_type=merchant&target_id=${m.client_id}`);
    expect(audit.body.items[0].changes).toEqual({ logo_uri: null, logo_sha256: null });
  });

  it('answers 404 for an unknown or malformed logo address, and refuses a logo_uri that is not a URL', async () => {
    expect((await fetch(`${t.baseUrl}/its/assets/logos/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await fetch(`${t.baseUrl}/its/assets/logos/..%2Fetc`)).status).toBe(404);
    const res = await admin.call('POST', '/admin/v1/merchants', { name: 'Bad', redirect_uris: [REDIRECT_URI], logo_uri: 'javascript:alert(1)' });
    expect(res.status).toBe(400);
    expect(res.body.fields).toHaveProperty('logo_uri');
  });
});
