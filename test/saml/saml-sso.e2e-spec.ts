import * as client from 'openid-client';
import { decodeJwt } from 'jose';
import { toSamlAttributes } from '../../src/verifier-claims/saml-attributes.js';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { attributesOf, certificateFromMetadata, nameIdentifierOf, postedResponse, SAML_ACS, samlLoginWithTestEid } from './saml-flow.js';
import { itWithTool, samlsignVerify, validateSchema, xmlsecVerify } from './saml-tools.js';

describe('SAML 1.1 Browser/POST single sign-on through the broker pages and the test eID', () => {
  let t: TestApp;
  let admin: ReturnType<typeof adminClient>;
  let certificatePem: string;
  const entityId = 'https://shop.example/shibboleth';
  const scope = 'openid profile ssn';
  let merchant: { client_id: string; client_secret: string };

  beforeAll(async () => {
    t = await startTestApp();
    admin = adminClient(t.baseUrl, t.adminToken);
    merchant = await admin.createMerchant({
      name: 'SAML shop',
      redirect_uris: [REDIRECT_URI],
      saml: { entity_id: entityId, assertion_consumer_url: SAML_ACS, scope },
    });
    certificatePem = (await certificateFromMetadata(t.baseUrl)).certificatePem;
  });
  afterAll(() => t.close());

  it('ends with a form posting SAMLResponse and TARGET to the consumer URL, submitted by a same-origin script', async () => {
    const { page, form, xml } = await samlLoginWithTestEid(t.baseUrl, { mid: merchant.client_id, TARGET: 'https://shop.example/after?x=1&y="2"' });
    expect(page.status).toBe(200);
    expect(form.method).toBe('post');
    expect(form.action).toBe(SAML_ACS);
    expect(form.fields.TARGET).toBe('https://shop.example/after?x=1&y="2"');
    expect(page.html).toMatch(/<button type="submit"/);
    expect(page.html).toContain('<script src="/saml/assets/auto-post.js"></script>');
    expect(page.html).not.toMatch(/<script>/);
    const script = await fetch(`${t.baseUrl}/saml/assets/auto-post.js`);
    expect(script.headers.get('content-type')).toContain('application/javascript');
    expect(await script.text()).toContain('form.submit()');
    expect(xml).toContain(`Recipient="${SAML_ACS}"`);
    expect(xml).toContain(`<saml:Audience>${entityId}</saml:Audience>`);
    expect(xml).toContain(`Issuer="${t.baseUrl}/saml/metadata"`);
  });

  it("speaks the user's language like every broker page: ui_locale, else the browser's Accept-Language", async () => {
    const nb = (await samlLoginWithTestEid(t.baseUrl, { mid: merchant.client_id, ui_locale: 'nb_NO' })).page.html;
    expect(nb).toContain('<html lang="nb-NO">');
    expect(nb).toContain('<h1>Tilbake til SAML shop</h1>');
    expect(nb).toContain('<noscript><p>Skript er slått av i nettleseren din: trykk på knappen for å gå tilbake til SAML shop.</p></noscript>');
    expect(nb).toMatch(/<button type="submit" class="continue" autofocus>Fortsett til SAML shop<\/button>/);
    const browser = new TestBrowser(t.baseUrl, { 'accept-language': 'de-DE,de;q=0.9' });
    const de = (await samlLoginWithTestEid(t.baseUrl, { mid: merchant.client_id }, 'uto-passport', browser)).page.html;
    expect(de).toContain('<h1>Zurück zu SAML shop</h1>');
    expect(de).toContain('>Weiter zu SAML shop</button>');
  });

  it('accepts the lower-case target spelling, and no target at all', async () => {
    expect((await samlLoginWithTestEid(t.baseUrl, { mid: merchant.client_id, target: 'cookie:123' })).form.fields.TARGET).toBe('cookie:123');
    expect((await samlLoginWithTestEid(t.baseUrl, { mid: merchant.client_id })).form.fields).not.toHaveProperty('TARGET');
  });

  it('releases the same data as OIDC for the same login under the same scopes; NameIdentifier = sub', async () => {
    const saml = await samlLoginWithTestEid(t.baseUrl, { mid: merchant.client_id, TARGET: 't' }, 'uto-passport');
    const config = await discover(`${t.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
    const req = await authorizationRequest(config, { scope });
    const { callback } = await loginWithTestEid(t.baseUrl, req.url, 'uto-passport');
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: req.verifier,
      expectedState: req.state,
      expectedNonce: req.nonce,
      idTokenExpected: true,
    });
    const claims = decodeJwt(tokens.id_token!) as Record<string, never>;
    const attributes = attributesOf(saml.xml);
    expect(attributes).toEqual(toSamlAttributes(claims));
    expect(attributes).toMatchObject({ fullname: expect.any(String), personalnumber: 'ZE184226B', DOB: expect.any(String), AUTHENTICATION_RESULT: 'pass' });
    expect(nameIdentifierOf(saml.xml)).toBe(claims.sub);
  });

  it('releases only what its scopes allow, and a pairwise merchant gets its pairwise subject', async () => {
    const narrow = await admin.createMerchant({
      name: 'Narrow',
      redirect_uris: ['http://localhost:9090/cb'],
      subject_type: 'pairwise',
      saml: { entity_id: 'urn:narrow:sp', assertion_consumer_url: 'http://localhost:9090/acs' },
    });
    const saml = await samlLoginWithTestEid(t.baseUrl, { mid: narrow.client_id });
    const attributes = attributesOf(saml.xml);
    expect(attributes).toHaveProperty('documentnumber');
    expect(attributes).not.toHaveProperty('fullname');
    expect(attributes).not.toHaveProperty('personalnumber');
    const config = await discover(`${t.baseUrl}/oidc`, narrow.client_id, narrow.client_secret);
    const req = await authorizationRequest(config, { scope: 'openid', redirect_uri: 'http://localhost:9090/cb' });
    const { callback } = await loginWithTestEid(t.baseUrl, req.url);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: req.verifier,
      expectedState: req.state,
      expectedNonce: req.nonce,
      idTokenExpected: true,
    });
    expect(nameIdentifierOf(saml.xml)).toBe(tokens.claims()!.sub);
  });

  itWithTool('xmllint', 'the posted response validates against the SAML 1.1 protocol schema', async () => {
    const { xml } = await samlLoginWithTestEid(t.baseUrl, { mid: merchant.client_id, TARGET: 't' });
    expect(validateSchema(xml)).toMatchObject({ ok: true });
  });

  itWithTool('xmlsec1', 'xmlsec1 accepts both signatures with the metadata certificate and rejects a changed attribute value', async () => {
    const { xml } = await samlLoginWithTestEid(t.baseUrl, { mid: merchant.client_id, TARGET: 't' });
    expect(xmlsecVerify(xml, certificatePem).ok).toBe(true);
    expect(xmlsecVerify(xml, certificatePem, 'assertion').ok).toBe(true);
    const tampered = xml.replace(/(AttributeName="documentnumber"[^>]*><saml:AttributeValue>)[^<]+/, '$1X0000000');
    expect(tampered).not.toBe(xml);
    expect(xmlsecVerify(tampered, certificatePem).ok).toBe(false);
    expect(xmlsecVerify(tampered, certificatePem, 'assertion').ok).toBe(false);
  });

  itWithTool('samlsign', 'samlsign verifies the posted response', async () => {
    const { xml } = await samlLoginWithTestEid(t.baseUrl, { mid: merchant.client_id });
    expect(samlsignVerify(xml, certificatePem).ok).toBe(true);
  });

  it('refuses an unregistered consumer URL (shire), an unknown mid and a merchant without SAML, before any page', async () => {
    const browser = new TestBrowser(t.baseUrl);
    const shire = await browser.get(
      `${t.baseUrl}/its/index.html?${new URLSearchParams({ mid: merchant.client_id, shire: 'https://evil.example/acs', TARGET: 't' })}`,
    );
    expect(shire.status).toBe(400);
    expect(shire.html).toContain('saml_consumer_not_registered');
    const registered = await browser.get(
      `${t.baseUrl}/its/index.html?${new URLSearchParams({ mid: merchant.client_id, shire: SAML_ACS, providerId: entityId })}`,
    );
    expect(registered.status).toBe(303);
    expect((await browser.get(`${t.baseUrl}/its/index.html?mid=m_unknown`)).html).toContain('saml_unknown_merchant');
    const oidcOnly = await admin.createMerchant({ name: 'OIDC only', redirect_uris: [REDIRECT_URI] });
    const refused = await browser.get(`${t.baseUrl}/its/index.html?mid=${oidcOnly.client_id}`);
    expect([refused.status, refused.html.includes('saml_unknown_merchant')]).toEqual([400, true]);
    const twice = await browser.get(`${t.baseUrl}/its/index.html?mid=${merchant.client_id}&TARGET=a&TARGET=b`);
    expect([twice.status, twice.html.includes('saml_invalid_request')]).toEqual([400, true]);
  });

  it("shows a refusal at the front door in the user's language (ui_locale, then Accept-Language), with its code", async () => {
    const byParameter = await new TestBrowser(t.baseUrl).get(`${t.baseUrl}/its/index.html?mid=m_unknown&ui_locale=de_DE`);
    expect(byParameter.html).toMatch(/<html lang="de/);
    expect(byParameter.html).toContain('saml_unknown_merchant');
    const byBrowser = await new TestBrowser(t.baseUrl, { 'accept-language': 'nb-NO,nb;q=0.9' }).get(`${t.baseUrl}/its/index.html?mid=m_unknown`);
    expect(byBrowser.html).toMatch(/<html lang="nb/);
  });

  it('a cancelled sign-in posts a signed Response without assertion (Responder, RequestDenied)', async () => {
    const browser = new TestBrowser(t.baseUrl);
    let page = await browser.follow(await browser.get(`${t.baseUrl}/its/index.html?mid=${merchant.client_id}&TARGET=t`));
    page = await browser.submit(page, 'action', 'cancel');
    const { xml } = postedResponse(page, browser);
    expect(xml).toContain('<samlp:StatusCode Value="samlp:Responder"><samlp:StatusCode Value="samlp:RequestDenied"/></samlp:StatusCode>');
    expect(xml).not.toContain('saml:Assertion');
  });

  it('answers once: the same form sent again finds the sign-in finished, and no OIDC session is left behind', async () => {
    const browser = new TestBrowser(t.baseUrl);
    let page = await browser.follow(await browser.get(`${t.baseUrl}/its/index.html?mid=${merchant.client_id}&TARGET=t`));
    if (page.html.includes('data-eid="test"')) page = await browser.submit(page, 'eid', 'test');
    const personPage = page;
    await browser.submit(personPage, 'person', 'uto-passport');
    const again = await browser.submit(personPage, 'person', 'uto-passport');
    expect(again.status).toBe(400);
    expect(again.html).toContain('interaction_expired');
    // The same browser asking OIDC with prompt=none is not signed in.
    const config = await discover(`${t.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
    const req = await authorizationRequest(config, { prompt: 'none' });
    const answer = await browser.follow(await browser.get(req.url.toString()));
    expect(new URL(answer.location!).searchParams.get('error')).toBe('login_required');
  });

  it("starts the login through the broker core: a 303 to the engine with a stored request's reference only, and a merchant cannot claim such a login", async () => {
    const first = await new TestBrowser(t.baseUrl).get(`${t.baseUrl}/its/index.html?mid=${merchant.client_id}&TARGET=t`);
    expect(first.status).toBe(303);
    const next = new URL(first.location!, t.baseUrl);
    expect(next.pathname).toBe('/its/index.html');
    // Nothing of the engine's request is in the browser's hands: no scope, no state, no PKCE challenge to change.
    expect([...next.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
    expect(next.searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:/);
    // The owner parameter the core seals into that request, sent by a merchant itself, is refused at its redirect URI.
    const config = await discover(`${t.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
    const forged = new URL((await authorizationRequest(config)).url.toString());
    forged.searchParams.set('brokered_login', 'forged.value');
    const answer = await new TestBrowser(t.baseUrl).get(forged.toString());
    expect(answer.status).toBe(303);
    expect(new URL(answer.location!).searchParams.get('error')).toBe('invalid_request');
  });

  it('leaves OIDC requests alone (client_id present)', async () => {
    const res = await new TestBrowser(t.baseUrl).get(
      `${t.baseUrl}/its/index.html?mid=${merchant.client_id}&client_id=${merchant.client_id}&response_type=code`,
    );
    expect(res.html).not.toContain('saml_');
  });
});
