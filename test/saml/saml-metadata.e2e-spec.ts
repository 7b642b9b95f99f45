import { startTestApp, type TestApp } from '../support/test-app.js';
import { adminClient } from '../support/admin-client.js';
import { REDIRECT_URI } from '../support/oidc-flow.js';
import { certificateFromMetadata, SAML_ACS, samlLoginWithTestEid } from './saml-flow.js';
import { itWithTool, samlsignVerifyByMetadata, validateSchema } from './saml-tools.js';

describe('GET /saml/metadata', () => {
  let t: TestApp;
  let metadata: string;

  beforeAll(async () => {
    t = await startTestApp();
    metadata = (await certificateFromMetadata(t.baseUrl)).metadata;
  });
  afterAll(() => t.close());

  it('names our entity ID, SAML 1.1, the front door and the signing certificate', async () => {
    const res = await fetch(`${t.baseUrl}/saml/metadata`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/samlmetadata+xml');
    expect(metadata).toContain(`entityID="${t.baseUrl}/saml/metadata"`);
    expect(metadata).toContain('protocolSupportEnumeration="urn:oasis:names:tc:SAML:1.1:protocol"');
    expect(metadata).toContain(`<md:SingleSignOnService Binding="urn:mace:shibboleth:1.0:profiles:AuthnRequest" Location="${t.baseUrl}/its/index.html"/>`);
    expect(metadata).toMatch(/<md:KeyDescriptor use="signing">.*<ds:X509Certificate>[A-Za-z0-9+/=]+<\/ds:X509Certificate>/);
  });

  itWithTool('xmllint', 'validates against the SAML 2.0 metadata schema (what Shibboleth SPs read)', async () => {
    expect(validateSchema(metadata, 'metadata')).toMatchObject({ ok: true });
  });

  itWithTool('samlsign', 'an SP trusting our metadata (samlsign, ExplicitKey trust engine) accepts a posted response', async () => {
    const admin = adminClient(t.baseUrl, t.adminToken);
    const m = await admin.createMerchant({ name: 'Meta', redirect_uris: [REDIRECT_URI], saml: { entity_id: 'urn:meta:sp', assertion_consumer_url: SAML_ACS } });
    const { xml } = await samlLoginWithTestEid(t.baseUrl, { mid: m.client_id });
    const result = samlsignVerifyByMetadata(xml, metadata, `${t.baseUrl}/saml/metadata`);
    expect(result).toMatchObject({ ok: true });
    expect(samlsignVerifyByMetadata(xml.replace('>L898902C3<', '>L000000C0<'), metadata, `${t.baseUrl}/saml/metadata`).ok).toBe(false);
  });
});
