import { randomUUID } from 'node:crypto';
import { adminClient } from '../support/admin-client.js';
import { describeWithPostgres } from '../support/describe-with-postgres.js';
import { writeIssuerFiles } from '../support/issuer-files.js';
import { startIssuerStateApp, type IssuerStateApp } from '../support/issuer-state-app.js';
import { readStatusListToken } from '../support/status-list-token.js';
import { productionTestEnv } from '../support/test-app.js';
import { CredentialStatusService, IssuerKeysService } from '../../src/credential-issuer/issuer-state.js';

/** Production signs with the operator's files; rotation there is the operator's (replace the files, restart). */
describeWithPostgres('credential issuer in production', () => {
  let t: IssuerStateApp;
  let files: Awaited<ReturnType<typeof writeIssuerFiles>>;

  beforeAll(async () => {
    files = await writeIssuerFiles();
    const { ALLOW_EMBEDDED_DATABASE: _embedded, ...env } = productionTestEnv();
    t = await startIssuerStateApp({
      env: { ...env, VCI_ENABLED: 'true', VCI_ISSUER_KEY_FILE: files.keyFile, VCI_ISSUER_CERTIFICATE_CHAIN_FILE: files.chainFile },
    });
  });
  afterAll(() => t?.close());

  it('signs status lists with the file signer, sends the chain without its root, and refuses a rotation', async () => {
    const [ref] = await t.app
      .get(CredentialStatusService)
      .allocate(1, { issuanceId: randomUUID(), recordId: null, expiresAt: new Date(Date.now() + 86_400_000) });
    expect(ref.uri).toMatch(/^https:\/\/broker\.example\/vci\/status-lists\//);
    const token = readStatusListToken(await (await fetch(ref.uri.replace(t.baseUrl, t.origin))).text(), files.root.der);
    expect(token.header.x5c).toEqual([Buffer.from(files.leaf.der).toString('base64')]);
    expect(await t.app.get(IssuerKeysService).anchors()).toEqual([files.root.der]);

    const admin = adminClient(t.origin, t.adminToken);
    const rotate = await admin.call('POST', '/admin/v1/credential-issuer/keys/rotate');
    expect(rotate.status).toBe(409);
    expect(rotate.body.error_description).toMatch(/replace the key and chain files and restart/);
    const listed = await admin.call('GET', '/admin/v1/credential-issuer/keys');
    expect(listed.body).toEqual([expect.objectContaining({ status: 'active', source: 'file', subject: expect.stringContaining('CN=Operator Issuer') })]);
    // Nothing generated in the database.
    expect(await t.dataSource.query('SELECT * FROM credential_issuer_test_authority')).toEqual([]);
  });
});
