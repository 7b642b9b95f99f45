import { adminClient } from '../support/admin-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { merchantCertificate } from './saml-tools.js';

describe('merchant SAML settings in the admin API', () => {
  let t: TestApp;
  let admin: ReturnType<typeof adminClient>;
  const base = { name: 'SAML shop', redirect_uris: ['https://shop.example/cb'] };

  beforeAll(async () => {
    t = await startTestApp();
    admin = adminClient(t.baseUrl, t.adminToken);
  });
  afterAll(() => t.close());

  it('registers, reads, replaces and clears the settings; each change is audited', async () => {
    const certificate = await merchantCertificate();
    const m = await admin.createMerchant({
      ...base,
      saml: { entity_id: 'https://shop.example/shibboleth', assertion_consumer_url: 'https://shop.example/Shibboleth.sso/SAML/POST', certificate },
    });
    expect(m.saml).toEqual({
      entity_id: 'https://shop.example/shibboleth',
      assertion_consumer_url: 'https://shop.example/Shibboleth.sso/SAML/POST',
      artifact_receiver_url: null,
      certificate: certificate.trim(),
      scope: 'openid',
    });
    expect((await admin.call('GET', `/admin/v1/merchants/${m.client_id}`)).body.saml.entity_id).toBe('https://shop.example/shibboleth');

    const replaced = await admin.call('PATCH', `/admin/v1/merchants/${m.client_id}`, {
      saml: { entity_id: 'urn:shop:sp', artifact_receiver_url: 'https://shop.example/art', scope: 'openid profile' },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.saml).toEqual({
      entity_id: 'urn:shop:sp',
      assertion_consumer_url: null,
      artifact_receiver_url: 'https://shop.example/art',
      certificate: null,
      scope: 'openid profile',
    });

    const cleared = await admin.call('PATCH', `/admin/v1/merchants/${m.client_id}`, { saml: null });
    expect(cleared.body.saml).toBeNull();
    const audit = await admin.call('GET', `/admin/v1/audit?target_type=merchant&target_id=${m.client_id}`);
    const samlChanges = audit.body.items.filter((r: { changes: Record<string, unknown> }) => 'saml' in r.changes);
    expect(samlChanges).toHaveLength(3);
  });

  it('merchants without SAML answer saml: null', async () => {
    expect((await admin.createMerchant(base)).saml).toBeNull();
  });

  it('one entity ID names one merchant', async () => {
    const saml = { entity_id: 'https://dup.example/sp', assertion_consumer_url: 'https://dup.example/acs' };
    await admin.createMerchant({ ...base, saml });
    const res = await admin.call('POST', '/admin/v1/merchants', { ...base, saml });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fields)).toEqual(['saml.entity_id']);
  });

  it('one entity ID names one merchant under concurrent registrations too: one 201, the rest 400 naming saml.entity_id', async () => {
    const saml = { entity_id: 'https://race.example/sp', assertion_consumer_url: 'https://race.example/acs' };
    const answers = await Promise.all(Array.from({ length: 8 }, () => admin.call('POST', '/admin/v1/merchants', { ...base, saml })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
    for (const a of answers.filter((x) => x.status === 400)) expect(Object.keys(a.body.fields)).toEqual(['saml.entity_id']);
  });

  const cases: [string, Record<string, unknown>, string][] = [
    ['no entity ID', { assertion_consumer_url: 'https://a.example/acs' }, 'saml.entity_id'],
    ['an entity ID that is not a URI', { entity_id: 'my shop', assertion_consumer_url: 'https://a.example/acs' }, 'saml.entity_id'],
    ['a consumer URL that is not a URL', { entity_id: 'urn:a', assertion_consumer_url: 'acs' }, 'saml.assertion_consumer_url'],
    ['a consumer URL over plain http', { entity_id: 'urn:a', assertion_consumer_url: 'http://a.example/acs' }, 'saml.assertion_consumer_url'],
    ['no endpoint at all', { entity_id: 'urn:a' }, 'saml'],
    ['a scope beyond the list', { entity_id: 'urn:a', assertion_consumer_url: 'https://a.example/acs', scope: 'openid wizard' }, 'saml.scope'],
    ['a certificate that is not PEM', { entity_id: 'urn:a', assertion_consumer_url: 'https://a.example/acs', certificate: 'hello' }, 'saml.certificate'],
    ['an unknown member', { entity_id: 'urn:a', assertion_consumer_url: 'https://a.example/acs', colour: 'red' }, 'saml.colour'],
  ];
  it.each(cases)('400 for %s', async (_label, saml, field) => {
    const res = await admin.call('POST', '/admin/v1/merchants', { ...base, saml });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fields)).toContain(field);
  });
});
