import { runVerification, VerifierClient } from '@identity-broker/verifier-sdk';
import { specimenPhone } from '../../scripts/test-app/specimen-phone.js';
import { toSamlAttributes } from '../../src/verifier-claims/saml-attributes.js';
import { adminClient } from '../support/admin-client.js';
import { discover } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { TestBrowser, type Page } from '../support/test-browser.js';
import { REDIRECT_URI, SHELDON, specimenDocumentDir, verifierLogin } from '../support/verifier-flow.js';
import { artifactRedirect, artifactRequestSoap, postSoap, responseOf, SAML_ARTIFACT_RECEIVER } from './saml-artifact-flow.js';
import { attributesOf, certificateFromMetadata, nameIdentifierOf, postedResponse, SAML_ACS } from './saml-flow.js';
import { itWithTool, samlTools, validateSchema, xmlsecVerify } from './saml-tools.js';

/** Per verification, not per person: the auth files link names the verification record. */
const PER_VERIFICATION = ['AUTHFILESURL'];
const withoutPerVerification = (a: Record<string, string>) => Object.fromEntries(Object.entries(a).filter(([k]) => !PER_VERIFICATION.includes(k)));

describe('SAML 1.1 merchant through the document verifier (specimen chip, SDK phone), POST and Artifact', () => {
  let t: TestApp;
  let documentDir: string;
  let merchant: { client_id: string; client_secret: string };
  let certificatePem: string;
  const scope = 'openid profile ssn';
  let oidcAttributes: Record<string, string>;
  let oidcSub: string;

  beforeAll(async () => {
    t = await startTestApp();
    merchant = await adminClient(t.baseUrl, t.adminToken).createMerchant({
      name: 'Verifier SAML shop',
      redirect_uris: [REDIRECT_URI],
      eid_schemes: ['document-verifier'],
      saml: { entity_id: 'https://verifier-shop.example/sp', assertion_consumer_url: SAML_ACS, artifact_receiver_url: SAML_ARTIFACT_RECEIVER, scope },
    });
    documentDir = await specimenDocumentDir(t.baseUrl);
    certificatePem = (await certificateFromMetadata(t.baseUrl)).certificatePem;
    // The same person through OIDC under the same scopes: what the assertions must say.
    const config = await discover(`${t.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
    const { outcome, claims } = await verifierLogin(t.baseUrl, config, { documentDir, person: SHELDON }, { scope });
    expect(outcome.authentication_result).toBe('pass');
    oidcAttributes = toSamlAttributes(claims as never);
    oidcSub = claims.sub;
  }, 240_000);
  afterAll(() => t.close(), 180_000);

  /** The front door, the waiting page with the app link, the phone side through the SDK, the page's continue step. */
  async function samlVerifierLogin(query: Record<string, string>): Promise<{ page: Page; browser: TestBrowser }> {
    const browser = new TestBrowser(t.baseUrl);
    const waiting = await browser.follow(await browser.get(`${t.baseUrl}/its/index.html?${new URLSearchParams({ mid: merchant.client_id, ...query })}`));
    const link = /<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(waiting.html)?.[1]?.replace(/&amp;/g, '&');
    if (!link) throw new Error(`no app link on the page: ${waiting.html.slice(0, 1500)}`);
    const { client: sdk, qrToken } = VerifierClient.fromLink(link);
    const outcome = await runVerification(sdk, qrToken, specimenPhone({ documentDir, selfie: SHELDON.center, left: SHELDON.left, right: SHELDON.right }));
    expect(outcome.authentication_result).toBe('pass');
    return { page: await browser.submit(waiting, 'action', 'continue'), browser };
  }

  it('Browser/POST: the posted assertion carries the OIDC claims of the same login under the same scopes', async () => {
    const { page, browser } = await samlVerifierLogin({ TARGET: 'after-verification' });
    const { form, xml } = postedResponse(page, browser);
    expect(form.action).toBe(SAML_ACS);
    expect(form.fields.TARGET).toBe('after-verification');
    const attributes = attributesOf(xml);
    expect(withoutPerVerification(attributes)).toEqual(withoutPerVerification(oidcAttributes));
    expect(attributes).toMatchObject({
      documentnumber: 'FH7654321',
      personalnumber: '15018012345',
      AUTHENTICATION_RESULT: 'pass',
      AUTHENTICATION_SOURCES: 'SDK_NFC,SDK_FACESCAN',
    });
    expect(attributes.AUTHFILESURL).toMatch(new RegExp(`^${t.baseUrl}/auth_files/fetch\\.html\\?tid=`));
    expect(nameIdentifierOf(xml)).toBe(oidcSub);
    // The chip proved its key: a hardware token.
    expect(xml).toContain('AuthenticationMethod="urn:oasis:names:tc:SAML:1.0:am:HardwareToken"');
  }, 180_000);

  it('Browser/Artifact: the artifact resolved over SOAP carries the same attributes', async () => {
    const { page } = await samlVerifierLogin({ shire: SAML_ARTIFACT_RECEIVER, TARGET: 'art' });
    const { artifact, target } = artifactRedirect(page, new TestBrowser(t.baseUrl));
    expect(target).toBe('art');
    const response = responseOf((await postSoap(t.baseUrl, artifactRequestSoap(artifact).soap, merchant)).body);
    expect(response).toContain('samlp:Success');
    expect(withoutPerVerification(attributesOf(response))).toEqual(withoutPerVerification(oidcAttributes));
    expect(nameIdentifierOf(response)).toBe(oidcSub);
  }, 180_000);

  itWithTool(
    'xmlsec1',
    'the verifier response is schema-valid and verifies with xmlsec1 (and fails after one changed value)',
    async () => {
      const { page, browser } = await samlVerifierLogin({});
      const { xml } = postedResponse(page, browser);
      if (samlTools.xmllint) expect(validateSchema(xml)).toMatchObject({ ok: true });
      expect(xmlsecVerify(xml, certificatePem).ok).toBe(true);
      expect(
        xmlsecVerify(xml.replace(/(AttributeName="AUTHENTICATION_RESULT"[^>]*><saml:AttributeValue>)pass/, '$1fail'), certificatePem, 'assertion').ok,
      ).toBe(false);
    },
    180_000,
  );
});
