import { adminClient } from '../support/admin-client.js';
import { describeWithPackages } from '../support/peer-process.js';
import { BROKER_ATTRIBUTE_NAMES, SUBJECT_ATTRIBUTE_ID } from '../support/shibboleth-sp-config.js';
import { SHIBBOLETH_SP_PACKAGES, startShibbolethSp, type ShibbolethSp } from '../support/shibboleth-sp.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { certificateFromMetadata } from './saml-flow.js';
import { loginThroughSp } from './sp-browser-login.js';

describeWithPackages(SHIBBOLETH_SP_PACKAGES, 'a stock Shibboleth SP 3 (Debian) signs in at our SAML 1.1 IdP', () => {
  let t: TestApp;
  let sp: ShibbolethSp;

  beforeAll(async () => {
    t = await startTestApp();
    const admin = adminClient(t.baseUrl, t.adminToken);
    const { certificatePem } = await certificateFromMetadata(t.baseUrl);
    sp = await startShibbolethSp({
      idpEntityId: `${t.baseUrl}/saml/metadata`,
      idpCertificatePem: certificatePem,
      attributeIds: [...BROKER_ATTRIBUTE_NAMES, SUBJECT_ATTRIBUTE_ID],
      register: async (endpoints) => {
        const m = await admin.createMerchant({
          name: 'Shibboleth shop',
          redirect_uris: [`${endpoints.origin}/cb`],
          saml: { entity_id: endpoints.entityId, assertion_consumer_url: endpoints.postAcs, artifact_receiver_url: endpoints.artifactAcs, scope: 'openid profile ssn' },
        });
        return { clientId: m.client_id, clientSecret: m.client_secret };
      },
    });
  }, 120_000);
  afterAll(async () => {
    await sp?.close();
    await t?.close();
  });

  it('POST: the protected page shows our attributes', async () => {
    const login = await loginThroughSp(t.baseUrl, sp.protectedUrl);
    console.log(login.visited, login.page.status, login.page.html.slice(0, 3000), sp.logs());
  }, 60_000);
});
