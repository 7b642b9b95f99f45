import { startTestApp, type TestApp } from '../support/test-app.js';

/** The base URL answers a person in their language and a developer with where to start (it used to be a 404). */
describe('the base URL (GET /)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.baseUrl}${path}`, { headers });
  const hrefs = (page: string) => Object.fromEntries([...page.matchAll(/<a href="([^"]+)" data-link="([a-z-]+)">/g)].map((m) => [m[2], m[1]]));

  it("shows a page in the reader's language, with the documentation, discovery and Swagger UI links", async () => {
    const res = await get('/', { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5', accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    const page = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-language')).toBe('de-DE');
    expect(res.headers.get('vary')).toMatch(/Accept-Language/);
    expect(page).toContain('<html lang="de-DE">');
    expect(page).toContain('<h1 tabindex="-1" autofocus>Identitätsprüfung</h1>');
    expect(hrefs(page)).toEqual({
      documentation: `${t.baseUrl}/docs`,
      discovery: `${t.baseUrl}/oidc/.well-known/openid-configuration`,
      'admin-api': `${t.baseUrl}/admin/docs`,
    });
    // Every link answers.
    for (const href of Object.values(hrefs(page))) expect((await fetch(href)).status).toBe(200);
  });

  it('takes ui_locales before Accept-Language, and English when neither names a language it speaks', async () => {
    expect(await (await get('/?ui_locales=nb-NO', { 'accept-language': 'de' })).text()).toContain('Identitetsbekreftelse');
    const other = await get('/', { 'accept-language': 'ja-JP' });
    expect([other.headers.get('content-language'), (await other.text()).includes('Identity verification')]).toEqual(['en-GB', true]);
  });

  it('answers JSON to a client that asks for it, and HEAD like GET', async () => {
    const res = await get('/', { accept: 'application/json' });
    expect(await res.json()).toEqual({
      documentation: `${t.baseUrl}/docs`,
      discovery: `${t.baseUrl}/oidc/.well-known/openid-configuration`,
      admin_api: `${t.baseUrl}/admin/docs`,
    });
    const head = await fetch(`${t.baseUrl}/`, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
  });
});
