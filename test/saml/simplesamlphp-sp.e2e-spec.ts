import { adminClient } from '../support/admin-client.js';
import { describeWithPackages } from '../support/peer-process.js';
import { SIMPLESAMLPHP_PACKAGES, startSimpleSamlPhpSp, type SimpleSamlPhpSp } from '../support/simplesamlphp-sp.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { TestBrowser } from '../support/test-browser.js';
import { attributesOf, certificateFromMetadata, nameIdentifierOf, samlLoginWithTestEid } from './saml-flow.js';
import { merchantCertificate } from './saml-tools.js';
import { loginThroughSp, type SpLogin } from './sp-browser-login.js';

interface AppPage {
  idp: string;
  nameId: { Value: string; Format: string };
  attributes: Record<string, string[]>;
}

/**
 * Debian's SimpleSAMLphp 1.19 as a SAML 1.1 SP, configured as docs/saml-sp-setup.md says: metarefresh loads our
 * published metadata (checking its signature), and an SP-initiated Browser/POST sign-in ends on the
 * application page with our NameIdentifier and attributes.
 */
describeWithPackages(SIMPLESAMLPHP_PACKAGES, 'a stock SimpleSAMLphp (Debian) at our SAML 1.1 IdP', () => {
  let t: TestApp;
  let admin: ReturnType<typeof adminClient>;
  let certificatePem: string;
  let sp: SimpleSamlPhpSp;
  const started: SimpleSamlPhpSp[] = [];

  const start = async (pin = certificatePem) => {
    const s = await startSimpleSamlPhpSp({
      idpEntityId: `${t.baseUrl}/saml/metadata`,
      idpCertificatePem: pin,
      register: async (e) => {
        await admin.createMerchant({
          name: 'SimpleSAMLphp shop',
          redirect_uris: [`${e.origin}/cb`],
          saml: { entity_id: e.entityId, assertion_consumer_url: e.acs, scope: 'openid profile ssn' },
        });
      },
    });
    started.push(s);
    return s;
  };
  const appPage = (login: SpLogin): AppPage => {
    if (login.page.status !== 200 || login.page.url !== sp.appUrl)
      throw new Error(
        `ended at ${login.page.url} (${login.page.status}): ${login.page.html.slice(0, 800)}\nvisited: ${login.visited.join('\n  ')}\n${sp.logs()}`,
      );
    return JSON.parse(login.page.html) as AppPage;
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = adminClient(t.baseUrl, t.adminToken);
    certificatePem = (await certificateFromMetadata(t.baseUrl)).certificatePem;
    sp = await start();
  }, 120_000);
  afterAll(async () => {
    for (const s of started) await s.close();
    await t?.close();
  });

  it('metarefresh accepts our signed metadata with our certificate and files us as a SAML 1.1 IdP (shib13-idp-remote)', () => {
    expect(sp.knowsIdp).toBe(true);
  });

  it('Browser/POST: the application page sends the browser to us by providerId and ends signed in with our NameIdentifier and attributes', async () => {
    const login = await loginThroughSp(t.baseUrl, sp.appUrl);
    const page = appPage(login);
    const request = new URL(login.visited.find((u) => u.startsWith(`${t.baseUrl}/its/index.html?`))!);
    expect(request.searchParams.get('providerId')).toBe(sp.entityId);
    expect(request.searchParams.get('shire')).toBe(sp.acs);
    expect(request.searchParams.has('mid')).toBe(false);
    expect(login.postedResponses).toHaveLength(1);
    const sent = login.postedResponses[0];
    expect(page.idp).toBe(`${t.baseUrl}/saml/metadata`);
    expect(page.nameId).toEqual({ Value: nameIdentifierOf(sent), Format: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified' });
    const attributes = attributesOf(sent);
    expect(attributes).toMatchObject({ personalnumber: 'ZE184226B', fullname: 'ANNA MARIA ERIKSSON', AUTHENTICATION_RESULT: 'pass' });
    expect(page.attributes).toEqual(Object.fromEntries(Object.entries(attributes).map(([name, value]) => [name, [value]])));
  });

  it("its quirk, documented: SimpleSAMLphp's own status page lists our attributes, then fails on the SAML 1.1 NameID", async () => {
    const login = await loginThroughSp(t.baseUrl, sp.appUrl);
    appPage(login);
    const status = await login.browser.get(`${sp.origin}/module.php/core/authenticate.php?as=default-sp`);
    expect(status.html).toContain('ZE184226B');
    expect(status.html).toContain('Call to a member function getValue() on array');
  });

  it('a response changed in the browser (one attribute value) is refused: no session, the page is not shown', async () => {
    const login = await loginThroughSp(t.baseUrl, sp.appUrl, {
      tamper: (xml) => xml.replace(/(AttributeName="personalnumber"[^>]*><saml:AttributeValue>)[^<]+/, '$1ZE000000A'),
    });
    expect(login.postedResponses[0]).toContain('ZE000000A');
    expect(login.page.url).toBe(sp.acs);
    // SimpleSAMLphp's error page (status 200): the reference digest no longer matches.
    expect(login.page.html).toContain('Reference validation failed');
    expect(login.page.html).not.toContain('ZE000000A');
    const again = await login.browser.get(sp.appUrl);
    expect(again.location).toMatch(new RegExp(`^${t.baseUrl}/its/index\\.html\\?providerId=`));
  });

  it('metarefresh with another certificate refuses our metadata: the SP does not know us and sends nobody to us', async () => {
    const other = await start(await merchantCertificate('not-the-broker'));
    expect(other.knowsIdp).toBe(false);
    expect(other.metarefreshOutput).toContain('could not verify signature using certificate');
    const login = await loginThroughSp(t.baseUrl, other.appUrl);
    expect(login.visited.some((u) => u.startsWith(t.baseUrl))).toBe(false);
    expect(login.page.status).toBe(500);
  });

  it("its quirk, documented for merchants: SimpleSAMLphp's SAML 1 ACS checks neither Audience nor Recipient, so it takes an assertion we made for another merchant", async () => {
    const other = await admin.createMerchant({
      name: 'Another shop',
      redirect_uris: ['http://localhost:9/cb'],
      saml: { entity_id: 'https://another.example/sp', assertion_consumer_url: 'http://localhost:9/acs', scope: 'openid' },
    });
    const { form, xml } = await samlLoginWithTestEid(t.baseUrl, { mid: other.client_id });
    expect(xml).toContain('<saml:Audience>https://another.example/sp</saml:Audience>');
    const browser = new TestBrowser(t.baseUrl);
    // Unsolicited: a TARGET that is a URL is taken as IdP-initiated sign-on.
    const posted = await browser.post(sp.acs, { SAMLResponse: form.fields.SAMLResponse, TARGET: sp.appUrl });
    expect(posted.location).toBe(sp.appUrl);
    const page = JSON.parse((await browser.get(sp.appUrl)).html) as AppPage;
    expect(page.nameId.Value).toBe(nameIdentifierOf(xml));
  });
});
