import { createHash } from 'node:crypto';
import { adminClient } from '../support/admin-client.js';
import { REDIRECT_URI } from '../support/oidc-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { artifactRequestSoap, postSoap, responseOf, SAML_ARTIFACT_RECEIVER, samlArtifactLoginWithTestEid } from './saml-artifact-flow.js';
import { attributesOf, certificateFromMetadata, nameIdentifierOf, SAML_ACS, samlLoginWithTestEid } from './saml-flow.js';
import { itWithTool, samlsignVerify, validateSchema, xmlsecVerify } from './saml-tools.js';

const DENIED = '<samlp:StatusCode Value="samlp:Requester"><samlp:StatusCode Value="samlp:RequestDenied"/></samlp:StatusCode>';

describe('SAML 1.1 Browser/Artifact: SAMLart to the artifact receiver, resolved once over SOAP', () => {
  let t: TestApp;
  let certificatePem: string;
  let shop: { client_id: string; client_secret: string };
  let other: { client_id: string; client_secret: string };
  let both: { client_id: string; client_secret: string };
  const scope = 'openid profile ssn';

  beforeAll(async () => {
    t = await startTestApp();
    const admin = adminClient(t.baseUrl, t.adminToken);
    shop = await admin.createMerchant({
      name: 'Artifact shop',
      redirect_uris: [REDIRECT_URI],
      saml: { entity_id: 'https://shop.example/sp', artifact_receiver_url: SAML_ARTIFACT_RECEIVER, scope },
    });
    other = await admin.createMerchant({
      name: 'Other shop',
      redirect_uris: [REDIRECT_URI],
      saml: { entity_id: 'https://other.example/sp', artifact_receiver_url: 'http://localhost:9090/art' },
    });
    both = await admin.createMerchant({
      name: 'Both bindings',
      redirect_uris: [REDIRECT_URI],
      saml: { entity_id: 'https://both.example/sp', assertion_consumer_url: SAML_ACS, artifact_receiver_url: SAML_ARTIFACT_RECEIVER, scope },
    });
    certificatePem = (await certificateFromMetadata(t.baseUrl)).certificatePem;
  });
  afterAll(() => t.close());

  it('redirects to the artifact receiver with a type 0x0001 SAMLart of our source id, and TARGET', async () => {
    const { location, artifact, target } = await samlArtifactLoginWithTestEid(t.baseUrl, { mid: shop.client_id, TARGET: 'https://shop.example/after?a=1&b=2' });
    expect(`${location.origin}${location.pathname}`).toBe(SAML_ARTIFACT_RECEIVER);
    expect(target).toBe('https://shop.example/after?a=1&b=2');
    const bytes = Buffer.from(artifact, 'base64');
    expect(bytes.length).toBe(42);
    expect(bytes.subarray(0, 2).toString('hex')).toBe('0001');
    expect(bytes.subarray(2, 22).equals(createHash('sha1').update(`${t.baseUrl}/saml/metadata`).digest())).toBe(true);
  });

  it('the merchant resolves it with HTTP Basic: a signed Response (InResponseTo = RequestID) with the signed assertion, equal to the POST one', async () => {
    const { artifact } = await samlArtifactLoginWithTestEid(t.baseUrl, { mid: shop.client_id, TARGET: 't' });
    const { soap, requestId } = artifactRequestSoap(artifact);
    const answer = await postSoap(t.baseUrl, soap, shop);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toContain('text/xml');
    expect(answer.body).toMatch(/^<\?xml[^>]*>\s*<soap:Envelope xmlns:soap="http:\/\/schemas\.xmlsoap\.org\/soap\/envelope\/"><soap:Body><samlp:Response /);
    const response = responseOf(answer.body);
    expect(response).toContain(`InResponseTo="${requestId}"`);
    expect(response).toContain('<samlp:StatusCode Value="samlp:Success"/>');
    expect(response).toContain('<saml:ConfirmationMethod>urn:oasis:names:tc:SAML:1.0:cm:artifact</saml:ConfirmationMethod>');
    expect(response).toContain('<saml:Audience>https://shop.example/sp</saml:Audience>');
    const posted = await samlLoginWithTestEid(t.baseUrl, { mid: both.client_id });
    expect(attributesOf(response)).toEqual(attributesOf(posted.xml));
    expect(attributesOf(response)).toMatchObject({ personalnumber: 'ZE184226B', AUTHENTICATION_RESULT: 'pass' });
    expect(nameIdentifierOf(response)).toBe(nameIdentifierOf(posted.xml));
  });

  itWithTool('xmllint', 'the resolved response validates against the SAML 1.1 protocol schema', async () => {
    const { artifact } = await samlArtifactLoginWithTestEid(t.baseUrl, { mid: shop.client_id });
    expect(validateSchema(responseOf((await postSoap(t.baseUrl, artifactRequestSoap(artifact).soap, shop)).body))).toMatchObject({ ok: true });
  });

  itWithTool('xmlsec1', 'xmlsec1 accepts both signatures of the resolved response and rejects a changed attribute value', async () => {
    const { artifact } = await samlArtifactLoginWithTestEid(t.baseUrl, { mid: shop.client_id });
    const response = responseOf((await postSoap(t.baseUrl, artifactRequestSoap(artifact).soap, shop)).body);
    expect(xmlsecVerify(response, certificatePem).ok).toBe(true);
    expect(xmlsecVerify(response, certificatePem, 'assertion').ok).toBe(true);
    const tampered = response.replace(/(AttributeName="personalnumber"[^>]*><saml:AttributeValue>)[^<]+/, '$1ZE000000A');
    expect(tampered).not.toBe(response);
    expect(xmlsecVerify(tampered, certificatePem, 'assertion').ok).toBe(false);
  });

  itWithTool('samlsign', 'samlsign verifies the resolved response', async () => {
    const { artifact } = await samlArtifactLoginWithTestEid(t.baseUrl, { mid: shop.client_id });
    expect(samlsignVerify(responseOf((await postSoap(t.baseUrl, artifactRequestSoap(artifact).soap, shop)).body), certificatePem).ok).toBe(true);
  });

  it('refuses a replayed artifact (signed Requester/RequestDenied, no assertion)', async () => {
    const { artifact } = await samlArtifactLoginWithTestEid(t.baseUrl, { mid: shop.client_id });
    expect(responseOf((await postSoap(t.baseUrl, artifactRequestSoap(artifact).soap, shop)).body)).toContain('samlp:Success');
    const { soap, requestId } = artifactRequestSoap(artifact);
    const replay = await postSoap(t.baseUrl, soap, shop);
    expect(replay.status).toBe(200);
    expect(replay.body).toContain(DENIED);
    expect(replay.body).toContain(`InResponseTo="${requestId}"`);
    expect(replay.body).not.toContain('saml:Assertion');
  });

  itWithTool('xmlsec1', 'the refusal is signed too', async () => {
    const refusal = await postSoap(t.baseUrl, artifactRequestSoap(Buffer.alloc(42).toString('base64')).soap, shop);
    expect(refusal.body).toContain(DENIED);
    expect(xmlsecVerify(responseOf(refusal.body), certificatePem).ok).toBe(true);
  });

  it('refuses an artifact resolved by another merchant, which leaves it to its own merchant', async () => {
    const { artifact } = await samlArtifactLoginWithTestEid(t.baseUrl, { mid: shop.client_id });
    const stolen = await postSoap(t.baseUrl, artifactRequestSoap(artifact).soap, other);
    expect(stolen.body).toContain(DENIED);
    expect(stolen.body).not.toContain('saml:Assertion');
    expect(responseOf((await postSoap(t.baseUrl, artifactRequestSoap(artifact).soap, shop)).body)).toContain('samlp:Success');
  });

  it('refuses an expired artifact (older than its minute)', async () => {
    const { artifact } = await samlArtifactLoginWithTestEid(t.baseUrl, { mid: shop.client_id });
    // The clock, moved: the artifact's minute is over.
    await t.dataSource.query(`UPDATE saml_artifacts SET expires_at = now() - interval '1 second', created_at = now() - interval '61 seconds'`);
    const late = await postSoap(t.baseUrl, artifactRequestSoap(artifact).soap, shop);
    expect(late.body).toContain(DENIED);
    expect(late.body).not.toContain('saml:Assertion');
  });

  it('keeps the assertion sealed at rest, under a hash of the handle', async () => {
    const { artifact } = await samlArtifactLoginWithTestEid(t.baseUrl, { mid: shop.client_id });
    const handle = Buffer.from(artifact, 'base64').subarray(22);
    const rows: { handle_hash: string; assertion_sealed: string }[] = await t.dataSource.query(
      'SELECT handle_hash, assertion_sealed FROM saml_artifacts WHERE handle_hash = $1',
      [createHash('sha256').update(handle).digest('hex')],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].assertion_sealed).not.toContain('ZE184226B');
    expect(rows[0].assertion_sealed).not.toContain('saml:');
  });

  it('refuses malformed SOAP with a SOAP Client fault carrying the error code', async () => {
    const { soap } = artifactRequestSoap(Buffer.alloc(42).toString('base64'));
    const cases = [
      'not xml at all',
      '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>',
      `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>${soap.replace(/^<\?xml[^>]*>/, '')}`,
      soap.replace(/http:\/\/schemas\.xmlsoap\.org\/soap\/envelope\//, 'http://www.w3.org/2003/05/soap-envelope'),
      soap.replace('MajorVersion="1"', 'MajorVersion="2"'),
      soap.replace(/RequestID="[^"]+"/, 'RequestID="1 2"'),
      soap.replace(/(<samlp:AssertionArtifact>[^<]*<\/samlp:AssertionArtifact>)/, '$1$1'),
      soap.replace('<soap:Body>', '<soap:Header><x:h xmlns:x="urn:x" soap:mustUnderstand="1"/></soap:Header><soap:Body>'),
      soap.replace('<soap:Body>', '<soap:Body><extra/>'),
    ];
    for (const body of cases) {
      const answer = await postSoap(t.baseUrl, body, shop);
      expect([body.slice(0, 60), answer.status]).toEqual([body.slice(0, 60), 400]);
      expect(answer.contentType).toContain('text/xml');
      expect(answer.body).toMatch(/<soap:Fault><faultcode>soap:Client<\/faultcode><faultstring>saml_invalid_soap: [^<]+<\/faultstring><\/soap:Fault>/);
    }
  });

  it('refuses requests without valid merchant credentials (401, Basic challenge), another media type (415) and oversized bodies', async () => {
    const { soap } = artifactRequestSoap(Buffer.alloc(42).toString('base64'));
    for (const credentials of [undefined, { ...shop, client_secret: 'wrong' }, { client_id: 'm_unknown', client_secret: 'x' }]) {
      const answer = await postSoap(t.baseUrl, soap, credentials);
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'saml_invalid_client' });
    }
    const oidcOnly = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'OIDC only', redirect_uris: [REDIRECT_URI] });
    expect((await postSoap(t.baseUrl, soap, oidcOnly)).status).toBe(401);
    const res = await fetch(`${t.baseUrl}/saml/artifact`, { method: 'POST', body: soap });
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect((await postSoap(t.baseUrl, soap, shop, 'text/plain')).status).toBe(415);
    expect((await postSoap(t.baseUrl, `${soap}<!--${'x'.repeat(20_000)}-->`, shop)).status).toBe(413);
  });

  it('picks the binding by shire: the artifact receiver URL gives Artifact, the consumer URL or none gives POST, anything else is refused', async () => {
    const art = await samlArtifactLoginWithTestEid(t.baseUrl, { mid: both.client_id, shire: SAML_ARTIFACT_RECEIVER, TARGET: 'x' });
    expect(art.target).toBe('x');
    expect(responseOf((await postSoap(t.baseUrl, artifactRequestSoap(art.artifact).soap, both)).body)).toContain('samlp:Success');
    expect((await samlLoginWithTestEid(t.baseUrl, { mid: both.client_id, shire: SAML_ACS })).form.action).toBe(SAML_ACS);
    expect((await samlLoginWithTestEid(t.baseUrl, { mid: both.client_id })).form.action).toBe(SAML_ACS);
    const refused = await fetch(`${t.baseUrl}/its/index.html?${new URLSearchParams({ mid: both.client_id, shire: 'https://evil.example/art' })}`, {
      redirect: 'manual',
    });
    expect([refused.status, (await refused.text()).includes('saml_consumer_not_registered')]).toEqual([400, true]);
  });

  it('a cancelled Browser/Artifact sign-in ends on our error page, with no artifact', async () => {
    const count = async (): Promise<number> => (await t.dataSource.query('SELECT count(*)::int AS n FROM saml_artifacts'))[0].n;
    const before = await count();
    const browser = new TestBrowser(t.baseUrl);
    let page = await browser.follow(await browser.get(`${t.baseUrl}/its/index.html?mid=${shop.client_id}&TARGET=t`));
    page = await browser.submit(page, 'action', 'cancel');
    expect([page.status, page.location]).toEqual([400, undefined]);
    expect(page.html).toContain('access_denied');
    expect(await count()).toBe(before);
  });

  it('lists the artifact resolution service (SOAP binding) in the metadata', async () => {
    const { metadata } = await certificateFromMetadata(t.baseUrl);
    expect(metadata).toContain(
      `<md:ArtifactResolutionService Binding="urn:oasis:names:tc:SAML:1.0:bindings:SOAP-binding" Location="${t.baseUrl}/saml/artifact" index="1"/>`,
    );
  });
});
