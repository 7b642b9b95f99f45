import { randomUUID, X509Certificate } from 'node:crypto';
import { adminClient } from '../support/admin-client.js';
import { describeWithPostgres } from '../support/describe-with-postgres.js';
import { startIssuerStateApp, type IssuerStateApp } from '../support/issuer-state-app.js';
import { readStatusListToken } from '../support/status-list-token.js';
import { CredentialStatusService, IssuerKeysService } from '../../src/credential-issuer/issuer-state.js';

const cert = (der: Uint8Array | string) => new X509Certificate(typeof der === 'string' ? Buffer.from(der, 'base64') : der);

/** customer-test's issuer PKI: one sealed root, signer certificates under it, rotated through the admin API. */
describeWithPostgres('credential issuer keys', () => {
  let t: IssuerStateApp;
  let keys: IssuerKeysService;

  beforeAll(async () => {
    t = await startIssuerStateApp({ env: { VCI_ISSUER_KEY_RELOAD_SECONDS: '1' } });
    keys = t.app.get(IssuerKeysService);
  });
  afterAll(() => t?.close());

  it('signs with a leaf under the test root, and the root is what verifiers trust', async () => {
    const signer = await keys.current();
    const [root] = await keys.anchors();
    expect(signer.chain).toHaveLength(1);
    const leaf = cert(signer.chain[0]);
    expect(cert(root).subject).toContain('CN=Customer-test Credential Issuer CA');
    expect(leaf.verify(cert(root).publicKey)).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.subjectAltName).toContain(`URI:${t.baseUrl}/vci`);
    expect(leaf.publicKey.export({ format: 'jwk' })).toMatchObject({ kty: 'EC', crv: 'P-256' });
    expect(signer.notAfter.getTime()).toBeGreaterThan(Date.now() + 365 * 86_400_000);
    // One root in the database, sealed: its private key is not readable there.
    const rows = await t.dataSource.query('SELECT sealed FROM credential_issuer_test_authority');
    expect(rows).toHaveLength(1);
    expect(rows[0].sealed).toMatch(/^v1\./);
  });

  it('rotates to a new leaf under the same root: listed without private material, audited, and the next token carries it', async () => {
    const status = t.app.get(CredentialStatusService);
    const [ref] = await status.allocate(1, { issuanceId: randomUUID(), recordId: null, expiresAt: new Date(Date.now() + 86_400_000) });
    const tokenNow = async () => readStatusListToken(await (await fetch(ref.uri.replace(t.baseUrl, t.origin))).text(), (await keys.anchors())[0]);
    const before = await tokenNow();
    const oldKid = (await keys.current()).kid;

    const admin = adminClient(t.origin, t.adminToken);
    const rotated = await admin.call('POST', '/admin/v1/credential-issuer/keys/rotate');
    expect(rotated.status).toBe(200);
    const active = rotated.body.filter((k: { status: string }) => k.status === 'active');
    expect(active).toHaveLength(1);
    expect(active[0].kid).not.toBe(oldKid);
    expect(rotated.body.find((k: { kid: string }) => k.kid === oldKid)).toMatchObject({ status: 'retiring', retire_at: expect.any(String) });
    const listed = await admin.call('GET', '/admin/v1/credential-issuer/keys');
    expect(listed.status).toBe(200);
    expect(Object.keys(listed.body[0]).sort()).toEqual(['created_at', 'kid', 'not_after', 'retire_at', 'signs_from', 'source', 'status', 'subject']);
    expect(listed.text).not.toMatch(/private|sealed|v1\.k/i);
    const audits = await t.dataSource.query(`SELECT action, changes FROM audit_records WHERE action = 'credential_issuer_keys.rotate'`);
    expect(audits).toEqual([{ action: 'credential_issuer_keys.rotate', changes: { active: [active[0].kid] } }]);

    const after = await tokenNow();
    expect(after.header.x5c).not.toEqual(before.header.x5c);
    expect((await keys.current()).kid).toBe(active[0].kid);
    expect(cert(after.header.x5c[0]).checkIssued(cert((await keys.anchors())[0]))).toBe(true);
    expect((await admin.call('POST', '/admin/v1/credential-issuer/keys/rotate', undefined, '')).status).toBe(401);
  });

  it('replaces a signer whose certificate could no longer cover a whole credential lifetime', async () => {
    const before = await keys.current();
    await t.dataSource.query(`UPDATE credential_issuer_keys SET not_after = now() + interval '30 days' WHERE kid = $1`, [before.kid]);
    let after = before;
    for (let i = 0; i < 50 && after.kid === before.kid; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await keys.current();
    }
    expect(after.kid).not.toBe(before.kid);
    expect(cert(after.chain[0]).verify(cert((await keys.anchors())[0]).publicKey)).toBe(true);
  });

  it('another instance picks up a rotation within its reload interval', async () => {
    const second = await startIssuerStateApp({ sameDatabaseAs: t });
    try {
      const other = second.app.get(IssuerKeysService);
      expect((await other.current()).kid).toBe((await keys.current()).kid);
      expect(await other.anchors()).toEqual(await keys.anchors());
      const [rotated] = (await keys.rotate()).filter((k) => k.status === 'active');
      let seen = (await other.current()).kid;
      for (let i = 0; i < 50 && seen !== rotated.kid; i++) {
        await new Promise((r) => setTimeout(r, 100));
        seen = (await other.current()).kid;
      }
      expect(seen).toBe(rotated.kid);
    } finally {
      await second.close();
    }
  });
});
