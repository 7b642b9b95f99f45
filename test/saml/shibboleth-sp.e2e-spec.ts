import { adminClient } from '../support/admin-client.js';
import { describeWithPackages } from '../support/peer-process.js';
import { BROKER_ATTRIBUTE_NAMES, SUBJECT_ATTRIBUTE_ID } from '../support/shibboleth-sp-config.js';
import { SHIBBOLETH_SP_PACKAGES, startShibbolethSp, type ShibbolethSp, type ShibbolethSpEndpoints } from '../support/shibboleth-sp.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { TestBrowser } from '../support/test-browser.js';
import { attributesOf, certificateFromMetadata, nameIdentifierOf, samlLoginWithTestEid } from './saml-flow.js';
import { merchantCertificate } from './saml-tools.js';
import { loginThroughSp, type SpLogin } from './sp-browser-login.js';

/** The browser's arrival at the SP's artifact receiver with SAMLart (and TARGET). */
function isArtifactDelivery(url: string, sp: ShibbolethSp): boolean {
  const u = new URL(url);
  return `${u.origin}${u.pathname}` === sp.artifactAcs && /^[A-Za-z0-9+/]{56}$/.test(u.searchParams.get('SAMLart') ?? '');
}

/**
 * Debian's Shibboleth SP 3 (shibd and Apache with mod_shib), configured as docs/saml-sp-setup.md says, against
 * our published metadata as it is: SP-initiated Browser/POST and Browser/Artifact sign-ins end on the SP's
 * protected page with our attributes, and the SP refuses what it must refuse.
 */
describeWithPackages(SHIBBOLETH_SP_PACKAGES, 'a stock Shibboleth SP 3 (Debian) at our SAML 1.1 IdP', () => {
  let t: TestApp;
  let admin: ReturnType<typeof adminClient>;
  let certificatePem: string;
  let sp: ShibbolethSp;
  const started: ShibbolethSp[] = [];
  const scope = 'openid profile ssn';

  /** The SP registered as a merchant with both bindings; `secret` overrides what the SP is given. */
  const registerAs =
    (override: { secret?: string } = {}) =>
    async (endpoints: ShibbolethSpEndpoints) => {
      const m = await admin.createMerchant({
        name: 'Shibboleth shop',
        redirect_uris: [`${endpoints.origin}/cb`],
        saml: { entity_id: endpoints.entityId, assertion_consumer_url: endpoints.postAcs, artifact_receiver_url: endpoints.artifactAcs, scope },
      });
      return { clientId: m.client_id, clientSecret: override.secret ?? m.client_secret };
    };
  const start = async (options: { pin?: string; secret?: string; backChannelOverHttp?: boolean } = {}) => {
    const s = await startShibbolethSp({
      backChannelOverHttp: options.backChannelOverHttp,
      idpEntityId: `${t.baseUrl}/saml/metadata`,
      idpCertificatePem: options.pin ?? certificatePem,
      attributeIds: [...BROKER_ATTRIBUTE_NAMES, SUBJECT_ATTRIBUTE_ID],
      register: registerAs({ secret: options.secret }),
    });
    started.push(s);
    return s;
  };
  /** The SP's page as JSON; a failure shows the walk and the SP's logs. */
  const exported = (login: SpLogin, on: ShibbolethSp = sp): Record<string, string> => {
    if (login.page.status !== 200 || !login.page.url.startsWith(on.protectedUrl))
      throw new Error(
        `ended at ${login.page.url} (${login.page.status}): ${login.page.html.slice(0, 800)}\nvisited: ${login.visited.join('\n  ')}\n${on.logs()}`,
      );
    return JSON.parse(login.page.html) as Record<string, string>;
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

  it('Browser/POST: the protected page sends the browser to our SSO by providerId, and shows the NameIdentifier and every attribute we sent', async () => {
    const login = await loginThroughSp(t.baseUrl, sp.protectedUrl);
    const page = exported(login);
    const request = new URL(login.visited.find((u) => u.startsWith(`${t.baseUrl}/its/index.html?`))!);
    expect(request.searchParams.get('providerId')).toBe(sp.entityId);
    expect(request.searchParams.get('shire')).toBe(sp.postAcs);
    expect(login.postedResponses).toHaveLength(1);
    const sent = login.postedResponses[0];
    const attributes = attributesOf(sent);
    expect(attributes).toMatchObject({ personalnumber: 'ZE184226B', fullname: 'ANNA MARIA ERIKSSON', AUTHENTICATION_RESULT: 'pass' });
    expect(page).toMatchObject({ ...attributes, [SUBJECT_ATTRIBUTE_ID]: nameIdentifierOf(sent), REMOTE_USER: nameIdentifierOf(sent), AUTH_TYPE: 'shibboleth' });
    expect(page['Shib-Identity-Provider']).toBe(`${t.baseUrl}/saml/metadata`);
    // Every attribute we sent has its attribute-map.xml entry: none is dropped as unknown.
    expect(Object.keys(attributes).filter((name) => !(name in page))).toEqual([]);
  });

  it('Browser/Artifact (/Shibboleth.sso/Login?acsIndex=2): SAMLart to the SP, which resolves it with HTTP Basic and shows the same', async () => {
    const start = `${sp.origin}/Shibboleth.sso/Login?${new URLSearchParams({ acsIndex: '2', target: sp.protectedUrl })}`;
    const login = await loginThroughSp(t.baseUrl, start);
    const page = exported(login);
    const request = new URL(login.visited.find((u) => u.startsWith(`${t.baseUrl}/its/index.html?`))!);
    expect(request.searchParams.get('shire')).toBe(sp.artifactAcs);
    expect(login.postedResponses).toEqual([]);
    expect(login.visited.some((u) => isArtifactDelivery(u, sp))).toBe(true);
    const post = exported(await loginThroughSp(t.baseUrl, sp.protectedUrl));
    const same = (p: Record<string, string>) => Object.fromEntries(BROKER_ATTRIBUTE_NAMES.filter((n) => n in p).map((n) => [n, p[n]]));
    expect(same(page)).toEqual(same(post));
    expect(page.personalnumber).toBe('ZE184226B');
    expect(page[SUBJECT_ATTRIBUTE_ID]).toBe(post[SUBJECT_ATTRIBUTE_ID]);
  });

  it('a response changed in the browser (one attribute value) makes no session: the signature is checked', async () => {
    const login = await loginThroughSp(t.baseUrl, sp.protectedUrl, {
      tamper: (xml) => xml.replace(/(AttributeName="personalnumber"[^>]*><saml:AttributeValue>)[^<]+/, '$1ZE000000A'),
    });
    expect(login.postedResponses[0]).toContain('ZE000000A');
    expect(login.page.url).toBe(sp.postAcs);
    expect(login.page.html).not.toContain('ZE000000A');
    expect(login.page.html).toContain('SecurityPolicyException');
    expect(login.page.html).toContain('signature could not be verified');
  });

  it('an assertion we made for another merchant is refused, by its Recipient and, at the same URL, by its Audience', async () => {
    const deliver = async (acs: string, entityId: string) => {
      const other = await admin.createMerchant({
        name: 'Another shop',
        redirect_uris: ['http://localhost:9/cb'],
        saml: { entity_id: entityId, assertion_consumer_url: acs, scope: 'openid' },
      });
      const { form } = await samlLoginWithTestEid(t.baseUrl, { mid: other.client_id });
      const browser = new TestBrowser(t.baseUrl);
      const posted = await browser.post(sp.postAcs, { SAMLResponse: form.fields.SAMLResponse, TARGET: sp.protectedUrl });
      expect([posted.status, posted.location]).toEqual([500, undefined]);
      expect((await browser.get(sp.protectedUrl)).location).toMatch(new RegExp(`^${t.baseUrl}/its/index\\.html\\?shire=`));
      return posted.html;
    };
    expect(await deliver('http://localhost:9/acs', 'https://another.example/sp')).toContain('SAML message delivered with POST to incorrect server URL.');
    // A merchant whose registered ACS is this SP's own URL (a copy of its settings, say) still gets nothing through.
    const audience = await deliver(sp.postAcs, 'https://copy.example/sp');
    expect(audience).toContain('Assertion contains an unacceptable AudienceRestrictionCondition.');
  });

  it('local logout ends the session (the next visit goes to us again); redirectLimit="exact" refuses a return to another host', async () => {
    const first = await loginThroughSp(t.baseUrl, sp.protectedUrl);
    exported(first);
    const out = await first.browser.get(`${sp.origin}/Shibboleth.sso/Logout?${new URLSearchParams({ return: sp.protectedUrl })}`);
    expect([out.status, out.location]).toEqual([302, sp.protectedUrl]);
    const again = await first.browser.get(sp.protectedUrl);
    expect(again.status).toBe(302);
    expect(again.location).toMatch(new RegExp(`^${t.baseUrl}/its/index\\.html\\?shire=`));
    const open = await first.browser.get(`${sp.origin}/Shibboleth.sso/Logout?${new URLSearchParams({ return: 'https://evil.example/' })}`);
    expect([open.status, open.location]).toEqual([500, undefined]);
    expect(open.html).toContain('Blocked unacceptable redirect location.');
  });

  it('metadata pinned to another certificate is refused: the SP does not know us and sends nobody to us', async () => {
    const other = await start({ pin: await merchantCertificate('not-the-broker') });
    expect(other.logs()).toContain('SignatureMetadataFilter unable to verify signature at root of metadata instance.');
    const login = await loginThroughSp(t.baseUrl, other.protectedUrl);
    expect(login.visited.some((u) => u.startsWith(t.baseUrl))).toBe(false);
    expect(login.page.status).toBe(500);
  });

  it('artifact resolution with a wrong merchant secret gets no assertion: the SP makes no session', async () => {
    const wrong = await start({ secret: 'not-the-secret' });
    const begin = `${wrong.origin}/Shibboleth.sso/Login?${new URLSearchParams({ acsIndex: '2', target: wrong.protectedUrl })}`;
    const login = await loginThroughSp(t.baseUrl, begin);
    expect(isArtifactDelivery(login.page.url, wrong)).toBe(true);
    expect(login.page.html).toContain('Unable to resolve artifact(s) into a SAML response.'.replace(/[:()]/g, (c) => `&#${c.charCodeAt(0)};`));
    expect(login.page.html).not.toContain('ZE184226B');
  });

  it('without requireConfidentiality="false" the SP will not resolve an artifact over plain http (so the Basic password never travels in clear)', async () => {
    const strict = await start({ backChannelOverHttp: false });
    const begin = `${strict.origin}/Shibboleth.sso/Login?${new URLSearchParams({ acsIndex: '2', target: strict.protectedUrl })}`;
    const login = await loginThroughSp(t.baseUrl, begin);
    expect(isArtifactDelivery(login.page.url, strict)).toBe(true);
    expect(login.page.status).toBe(500);
    expect(strict.logs()).toContain('Transport confidentiality required, but not available.');
  });
});
