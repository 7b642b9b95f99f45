import { startTestApp, type TestApp } from '../support/test-app.js';
import { adminClient } from '../support/admin-client.js';
import { REDIRECT_URI } from '../support/oidc-flow.js';
import { certificateFromMetadata, SAML_ACS, samlLoginWithTestEid } from './saml-flow.js';
import { itWithTool, merchantCertificate, samlsignVerifyByMetadata, samlsignVerifyByPinnedMetadata, validateSchema, xmlsecVerify } from './saml-tools.js';

describe('GET /saml/metadata', () => {
  let t: TestApp;
  let metadata: string;
  let certificatePem: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ metadata, certificatePem } = await certificateFromMetadata(t.baseUrl));
  });
  afterAll(() => t.close());

  it('names our entity ID, SAML 1.1 and the Shibboleth protocol, the front door and the signing certificate', async () => {
    const res = await fetch(`${t.baseUrl}/saml/metadata`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/samlmetadata+xml');
    expect(metadata).toContain(`entityID="${t.baseUrl}/saml/metadata"`);
    // A Shibboleth SP sends its Shib1 AuthnRequest only to a role naming urn:mace:shibboleth:1.0.
    expect(metadata).toContain('protocolSupportEnumeration="urn:oasis:names:tc:SAML:1.1:protocol urn:mace:shibboleth:1.0"');
    expect(metadata).toContain(`<md:SingleSignOnService Binding="urn:mace:shibboleth:1.0:profiles:AuthnRequest" Location="${t.baseUrl}/its/index.html"/>`);
    expect(metadata).toContain(
      `<md:ArtifactResolutionService Binding="urn:oasis:names:tc:SAML:1.0:bindings:SOAP-binding" Location="${t.baseUrl}/saml/artifact" index="1"/>`,
    );
    expect(metadata).toMatch(/<md:KeyDescriptor use="signing">.*<ds:X509Certificate>[A-Za-z0-9+/=]+<\/ds:X509Certificate>/);
  });

  it('is signed (enveloped, first child, referencing the root ID), valid for 7 days, cached 6 hours', async () => {
    const root = /<md:EntityDescriptor ([^>]*)>\s*<ds:Signature /.exec(metadata);
    expect(root).not.toBeNull();
    const attr = (name: string) => new RegExp(`\\b${name}="([^"]+)"`).exec(root![1])?.[1];
    expect(attr('ID')).toMatch(/^_[0-9a-f]{32}$/);
    expect(metadata).toContain(`<ds:Reference URI="#${attr('ID')}">`);
    expect(metadata).toContain('<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>');
    expect(attr('cacheDuration')).toBe('PT6H');
    const validFor = Date.parse(attr('validUntil')!) - Date.now();
    expect(validFor).toBeGreaterThan(7 * 86400_000 - 2 * 3600_000);
    expect(validFor).toBeLessThanOrEqual(7 * 86400_000);
  });

  itWithTool('xmllint', 'validates against the SAML 2.0 metadata schema (what Shibboleth SPs read)', async () => {
    expect(validateSchema(metadata, 'metadata')).toMatchObject({ ok: true });
  });

  itWithTool('xmlsec1', 'xmlsec1 verifies the signature with the published certificate; a changed endpoint or another certificate fails', async () => {
    expect(xmlsecVerify(metadata, certificatePem)).toMatchObject({ ok: true });
    const tampered = metadata.replace(`Location="${t.baseUrl}/its/index.html"`, 'Location="https://evil.example/sso"');
    expect(tampered).not.toBe(metadata);
    expect(xmlsecVerify(tampered, certificatePem).ok).toBe(false);
    expect(xmlsecVerify(metadata, await merchantCertificate('someone.else')).ok).toBe(false);
  });

  itWithTool('samlsign', 'an SP trusting our metadata (samlsign, ExplicitKey trust engine) accepts a posted response', async () => {
    const admin = adminClient(t.baseUrl, t.adminToken);
    const m = await admin.createMerchant({ name: 'Meta', redirect_uris: [REDIRECT_URI], saml: { entity_id: 'urn:meta:sp', assertion_consumer_url: SAML_ACS } });
    const { xml } = await samlLoginWithTestEid(t.baseUrl, { mid: m.client_id });
    const result = samlsignVerifyByMetadata(xml, metadata, `${t.baseUrl}/saml/metadata`);
    expect(result).toMatchObject({ ok: true });
    expect(samlsignVerifyByMetadata(xml.replace('>L898902C3<', '>L000000C0<'), metadata, `${t.baseUrl}/saml/metadata`).ok).toBe(false);
  });

  itWithTool('samlsign', "an SP pinning it (OpenSAML's SignatureMetadataFilter and RequireValidUntil) loads it; tampered metadata is not trusted", async () => {
    const admin = adminClient(t.baseUrl, t.adminToken);
    const m = await admin.createMerchant({
      name: 'Pinned',
      redirect_uris: [REDIRECT_URI],
      saml: { entity_id: 'urn:pinned:sp', assertion_consumer_url: SAML_ACS },
    });
    const { xml } = await samlLoginWithTestEid(t.baseUrl, { mid: m.client_id });
    const issuer = `${t.baseUrl}/saml/metadata`;
    expect(samlsignVerifyByPinnedMetadata(xml, metadata, issuer, certificatePem)).toMatchObject({ ok: true });
    const tampered = metadata.replace(`Location="${t.baseUrl}/saml/artifact"`, 'Location="https://evil.example/artifact"');
    expect(samlsignVerifyByPinnedMetadata(xml, tampered, issuer, certificatePem).ok).toBe(false);
    expect(samlsignVerifyByPinnedMetadata(xml, metadata, issuer, await merchantCertificate('someone.else')).ok).toBe(false);
    // RequireValidUntil with a one-day limit refuses our week: the filter does read validUntil.
    expect(samlsignVerifyByPinnedMetadata(xml, metadata, issuer, certificatePem, 86400).ok).toBe(false);
  });
});
