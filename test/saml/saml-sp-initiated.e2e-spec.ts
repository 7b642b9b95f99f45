import { adminClient } from '../support/admin-client.js';
import { MERCHANT_ORIGIN, REDIRECT_URI } from '../support/oidc-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { SAML_ARTIFACT_RECEIVER, artifactRedirect } from './saml-artifact-flow.js';
import { certificateFromMetadata, SAML_ACS, samlLoginAt } from './saml-flow.js';
import { itWithTool, xmlsecVerify } from './saml-tools.js';
import { shibbolethShib1Url, simpleSamlPhpShib13Url, ssoLocationFromMetadata } from './sp-request-urls.js';

/**
 * SP-initiated sign-on as stock service providers send it: Shibboleth SP 3's Shib1 SessionInitiator and
 * SimpleSAMLphp's SAML 1 SP name themselves by providerId (their entity ID) and never send our mid.
 */
describe('SAML 1.1 SP-initiated sign-on without mid (Shibboleth Shib1 and SimpleSAMLphp requests)', () => {
  let t: TestApp;
  let admin: ReturnType<typeof adminClient>;
  let location: string;
  let certificatePem: string;
  const shibEntityId = 'https://shop.example/shibboleth';
  const sspEntityId = `${MERCHANT_ORIGIN}/simplesaml/module.php/saml/sp/metadata.php/default-sp`;
  const sspShire = `${MERCHANT_ORIGIN}/simplesaml/module.php/saml/sp/saml1-acs.php/default-sp`;

  beforeAll(async () => {
    t = await startTestApp();
    admin = adminClient(t.baseUrl, t.adminToken);
    await admin.createMerchant({
      name: 'Shib shop',
      redirect_uris: [REDIRECT_URI],
      saml: { entity_id: shibEntityId, assertion_consumer_url: SAML_ACS, artifact_receiver_url: SAML_ARTIFACT_RECEIVER },
    });
    await admin.createMerchant({
      name: 'SSP shop',
      redirect_uris: [`${MERCHANT_ORIGIN}/ssp/cb`],
      saml: { entity_id: sspEntityId, assertion_consumer_url: sspShire },
    });
    const published = await certificateFromMetadata(t.baseUrl);
    certificatePem = published.certificatePem;
    location = ssoLocationFromMetadata(published.metadata);
  });
  afterAll(() => t.close());

  it('the published SSO location has no query, so a blindly appended "?" (SimpleSAMLphp) still starts a well-formed query', () => {
    expect(location).toBe(`${t.baseUrl}/its/index.html`);
  });

  itWithTool('xmlsec1', "Shibboleth's Shib1 request (shire, time, target, providerId; no mid) signs in and posts a response xmlsec1 verifies", async () => {
    const url = shibbolethShib1Url(location, {
      shire: SAML_ACS,
      target: 'ss:mem:4227cad0a90524da9366b45362f0985af17ac336a14b2c20fe30cc1adcd7665e',
      providerId: shibEntityId,
    });
    expect(url).not.toContain('mid=');
    const { form, xml } = await samlLoginAt(url);
    expect(form.action).toBe(SAML_ACS);
    expect(form.fields.TARGET).toBe('ss:mem:4227cad0a90524da9366b45362f0985af17ac336a14b2c20fe30cc1adcd7665e');
    expect(xml).toContain(`<saml:Audience>${shibEntityId}</saml:Audience>`);
    expect(xml).toContain(`Recipient="${SAML_ACS}"`);
    expect(xmlsecVerify(xml, certificatePem).ok).toBe(true);
    expect(xmlsecVerify(xml, certificatePem, 'assertion').ok).toBe(true);
  });

  it('a Shib1 request naming the artifact receiver as shire ends at the artifact receiver with SAMLart', async () => {
    const browser = new TestBrowser(t.baseUrl);
    let page = await browser.follow(
      await browser.get(shibbolethShib1Url(location, { shire: SAML_ARTIFACT_RECEIVER, target: 'default', providerId: shibEntityId })),
    );
    if (page.html.includes('data-eid="test"')) page = await browser.submit(page, 'eid', 'test');
    const redirect = artifactRedirect(await browser.submit(page, 'person', 'uto-passport'), browser);
    expect(`${redirect.location.origin}${redirect.location.pathname}`).toBe(SAML_ARTIFACT_RECEIVER);
    expect(redirect.target).toBe('default');
    expect(redirect.artifact).toMatch(/^[A-Za-z0-9+/]{56}$/);
  });

  it("SimpleSAMLphp's request (providerId, shire, target; no time, no mid; PHP urlencode) signs in", async () => {
    // Its target is the saved state's id and its return URL, as SimpleSAMLphp 1.19.7 sends it (recorded: opaque to us).
    const target =
      '_bde0a781b31d60d19e7a8954276d3f0be206d1c3c4:http://localhost:8081/simplesaml/module.php/core/as_login.php?AuthId=default-sp&ReturnTo=http%3A%2F%2Flocalhost%3A8081%2Fapp%2F';
    const url = simpleSamlPhpShib13Url(location, { providerId: sspEntityId, shire: sspShire, target });
    expect(url).toContain('/its/index.html?providerId=');
    const { form, xml } = await samlLoginAt(url);
    expect(form.action).toBe(sspShire);
    expect(form.fields.TARGET).toBe(target);
    expect(xml).toContain(`<saml:Audience>${sspEntityId}</saml:Audience>`);
  });

  it('an unknown or disabled providerId gets our error page, never a redirect to shire', async () => {
    const browser = new TestBrowser(t.baseUrl);
    const unknown = await browser.get(
      shibbolethShib1Url(location, { shire: 'https://evil.example/acs', target: 't', providerId: 'https://unknown.example/sp' }),
    );
    expect([unknown.status, unknown.location]).toEqual([400, undefined]);
    expect(unknown.html).toContain('saml_unknown_merchant');
    expect(unknown.html).not.toContain('evil.example');
    const off = await admin.createMerchant({
      name: 'Off',
      redirect_uris: [`${MERCHANT_ORIGIN}/off/cb`],
      saml: { entity_id: 'urn:off:sp', assertion_consumer_url: `${MERCHANT_ORIGIN}/off/acs` },
    });
    await admin.call('POST', `/admin/v1/merchants/${off.client_id}/disable`);
    const disabled = await browser.get(shibbolethShib1Url(location, { shire: `${MERCHANT_ORIGIN}/off/acs`, target: 't', providerId: 'urn:off:sp' }));
    expect([disabled.status, disabled.location, disabled.html.includes('saml_unknown_merchant')]).toEqual([400, undefined, true]);
    const empty = await browser.get(`${location}?providerId=&shire=${encodeURIComponent(SAML_ACS)}`);
    expect([empty.status, empty.html.includes('saml_unknown_merchant')]).toEqual([400, true]);
  });

  it('a known providerId with an unregistered shire is refused before any page', async () => {
    const res = await new TestBrowser(t.baseUrl).get(
      shibbolethShib1Url(location, { shire: 'https://evil.example/acs', target: 't', providerId: shibEntityId }),
    );
    expect([res.status, res.location]).toEqual([400, undefined]);
    expect(res.html).toContain('saml_consumer_not_registered');
  });

  it('mid still works, alone or with the matching providerId; a providerId of another merchant next to mid is refused', async () => {
    const m = await admin.createMerchant({
      name: 'Both',
      redirect_uris: ['http://localhost:8083/cb'],
      saml: { entity_id: 'urn:both:sp', assertion_consumer_url: 'http://localhost:8083/acs' },
    });
    const browser = new TestBrowser(t.baseUrl);
    const alone = await browser.get(`${location}?${new URLSearchParams({ mid: m.client_id, TARGET: 't' })}`);
    expect(alone.status).toBe(303);
    const agreeing = await browser.get(
      shibbolethShib1Url(`${location}?mid=${m.client_id}`, { shire: 'http://localhost:8083/acs', target: 't', providerId: 'urn:both:sp' }),
    );
    expect(agreeing.status).toBe(303);
    const other = await browser.get(
      shibbolethShib1Url(`${location}?mid=${m.client_id}`, { shire: 'http://localhost:8083/acs', target: 't', providerId: shibEntityId }),
    );
    expect([other.status, other.html.includes('saml_invalid_request')]).toEqual([400, true]);
  });
});
