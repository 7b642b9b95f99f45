import { adminClient } from '../support/admin-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const SECRET = 'the-upstream-secret-never-shown-again';
const scheme = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  labels: { en_GB: 'Freja eID', sv_SE: 'Freja eID' },
  environment: 'customer-test',
  issuer: 'https://oidc.freja.example',
  client_id: 'broker',
  client_secret: SECRET,
  claim_mappers: [{ type: 'date', from: 'birthdate', to: 'birthdate', format: 'DD.MM.YYYY' }],
  ...extra,
});

/** /admin/v1/eid-schemes: schemes as data, audited, the secret sealed and never returned, support read-only. */
describe('admin API: eID schemes', () => {
  let t: TestApp;
  let admin: ReturnType<typeof adminClient>;

  beforeAll(async () => {
    t = await startTestApp();
    admin = adminClient(t.baseUrl, t.adminToken);
  });
  afterAll(() => t?.close());

  it('creates, reads, updates and disables a scheme; the secret is sealed and never returned or audited', async () => {
    const created = await admin.call('POST', '/admin/v1/eid-schemes', scheme('freja'));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: 'freja',
      kind: 'upstream-oidc',
      enabled: true,
      client_secret_set: true,
      amr: ['freja'],
      subject_mode: 'hashed',
      redirect_uri: `${t.baseUrl}/its/eid/callback`,
    });
    expect(created.text).not.toContain(SECRET);
    const updated = await admin.call('PATCH', '/admin/v1/eid-schemes/freja', {
      acr_map: { 'urn:freja:loa3': 'urn:svc:cert:eidas:high' },
      client_secret: 'rotated-secret-value',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.reachable_acr).toEqual(['urn:svc:cert:eidas:high']);
    expect((await admin.call('POST', '/admin/v1/eid-schemes/freja/disable')).body.enabled).toBe(false);
    const read = await admin.call('GET', '/admin/v1/eid-schemes/freja');
    expect(read.body).toMatchObject({ enabled: false, labels: { en_GB: 'Freja eID' } });
    expect(read.text).not.toMatch(/rotated-secret-value|client_secret"/);
    const [row] = await t.dataSource.query(`SELECT client_secret_sealed FROM eid_schemes WHERE id = 'freja'`);
    expect(row.client_secret_sealed).toMatch(/^v1\./);
    const audit = await admin.call('GET', '/admin/v1/audit?target_type=eid_scheme&target_id=freja');
    expect(audit.body.items.map((r: { action: string }) => r.action)).toEqual(['eid_scheme.disable', 'eid_scheme.update', 'eid_scheme.create']);
    expect(audit.text).not.toMatch(new RegExp(`${SECRET}|rotated-secret-value`));
    expect(audit.text).toContain('client_secret_set');
  });

  it('lists the built-in schemes with the upstream ones, and refuses to change a built-in one', async () => {
    const list = await admin.call('GET', '/admin/v1/eid-schemes');
    expect(list.status).toBe(200);
    const kinds = Object.fromEntries(list.body.items.map((s: { id: string; kind: string }) => [s.id, s.kind]));
    expect(kinds).toMatchObject({ test: 'built-in', 'document-verifier': 'built-in' });
    expect((await admin.call('GET', '/admin/v1/eid-schemes/test')).body.environment).toBe('customer-test');
    expect((await admin.call('POST', '/admin/v1/eid-schemes', scheme('test'))).status).toBe(409);
    expect((await admin.call('PATCH', '/admin/v1/eid-schemes/document-verifier', { scope: 'openid' })).status).toBe(409);
    expect((await admin.call('POST', '/admin/v1/eid-schemes', scheme('dup'))).status).toBe(201);
    expect((await admin.call('POST', '/admin/v1/eid-schemes', scheme('dup'))).status).toBe(409);
    expect((await admin.call('GET', '/admin/v1/eid-schemes/nope')).status).toBe(404);
  });

  it('answers 400 naming each bad field: mappers, labels, acr map, scope', async () => {
    const bad = await admin.call(
      'POST',
      '/admin/v1/eid-schemes',
      scheme('bad', {
        labels: { xx_XX: 'x' },
        scope: 'profile',
        acr_map: { 'urn:x': 'urn:not:ours' },
        claim_mappers: [
          { type: 'rename', from: 'nin', to: 'not_a_released_claim' },
          { type: 'regex', from: 'a', to: 'name', pattern: '(', replacement: '' },
          { type: 'date', from: 'b', to: 'birthdate' },
        ],
      }),
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields)).toEqual(expect.arrayContaining(['scope']));
    const semantic = await admin.call(
      'POST',
      '/admin/v1/eid-schemes',
      scheme('bad', {
        labels: { xx_XX: 'x' },
        acr_map: { 'urn:x': 'urn:not:ours' },
        claim_mappers: [
          { type: 'rename', from: 'nin', to: 'not_a_released_claim' },
          { type: 'regex', from: 'a', to: 'name', pattern: '(', replacement: '' },
          { type: 'date', from: 'b', to: 'birthdate' },
        ],
      }),
    );
    expect(semantic.status).toBe(400);
    expect(Object.keys(semantic.body.fields).sort()).toEqual(['acr_map', 'claim_mappers.0.to', 'claim_mappers.1.pattern', 'claim_mappers.2.format', 'labels']);
    expect((await admin.call('POST', '/admin/v1/eid-schemes', { ...scheme('extra'), surprise: 1 })).status).toBe(400);
    expect((await admin.call('POST', '/admin/v1/eid-schemes', scheme('Bad Id'))).status).toBe(400);
  });

  it('lets the support role read schemes but not change them', async () => {
    const issued = await admin.call('POST', '/admin/v1/tokens', { role: 'support', label: 'desk' });
    const support = adminClient(t.baseUrl, issued.body.token);
    expect((await support.call('GET', '/admin/v1/eid-schemes')).status).toBe(200);
    expect((await support.call('GET', '/admin/v1/eid-schemes/test')).status).toBe(200);
    expect((await support.call('POST', '/admin/v1/eid-schemes', scheme('by-support'))).status).toBe(403);
    expect((await support.call('PATCH', '/admin/v1/eid-schemes/dup', { scope: 'openid' })).status).toBe(403);
    expect((await support.call('POST', '/admin/v1/eid-schemes/dup/disable')).status).toBe(403);
    expect((await adminClient(t.baseUrl, '').call('GET', '/admin/v1/eid-schemes')).status).toBe(401);
  });
});
