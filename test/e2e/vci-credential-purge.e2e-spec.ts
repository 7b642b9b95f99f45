import { randomUUID } from 'node:crypto';
import { describeWithPostgres } from '../support/describe-with-postgres.js';
import { startIssuerStateApp, type IssuerStateApp } from '../support/issuer-state-app.js';
import { readStatusListToken } from '../support/status-list-token.js';
import { CredentialStatusService } from '../../src/credential-issuer/issuer-state.js';
import { CredentialStatusPurgeService } from '../../src/credential-issuer/status/credential-status-purge.service.js';

const DAY = 86_400_000;

/** The issuer's purge job: credentials of a deleted verification record are revoked; expired ones leave their list. */
describeWithPostgres('credential issuer purge', () => {
  let t: IssuerStateApp;
  let status: CredentialStatusService;
  const tokenOf = async (uri: string) => readStatusListToken(await (await fetch(uri.replace(t.baseUrl, t.origin))).text());
  const rowsOf = async (issuanceId: string) =>
    (await t.dataSource.query('SELECT idx, status FROM issued_credential_status WHERE issuance_id = $1 ORDER BY idx', [issuanceId])) as { idx: number; status: number }[];

  beforeAll(async () => {
    t = await startIssuerStateApp();
    status = t.app.get(CredentialStatusService);
  });
  afterAll(() => t?.close());

  it('revokes the credentials whose verification record was deleted, and only those', async () => {
    const kept = randomUUID();
    const erased = randomUUID();
    await t.dataSource.query(
      `INSERT INTO verification_records (id, client_id, sealed, key_id, delete_after) VALUES ($1, 'merchant', 'v1.k1.x.y.z', 'k1', now() + interval '30 days'), ($2, 'merchant', 'v1.k1.x.y.z', 'k1', now() + interval '30 days')`,
      [kept, erased],
    );
    const keptIssuance = randomUUID();
    const erasedIssuance = randomUUID();
    const keptRefs = await status.allocate(2, { issuanceId: keptIssuance, recordId: kept, expiresAt: new Date(Date.now() + 30 * DAY) });
    const erasedRefs = await status.allocate(2, { issuanceId: erasedIssuance, recordId: erased, expiresAt: new Date(Date.now() + 30 * DAY) });
    await t.dataSource.query('DELETE FROM verification_records WHERE id = $1', [erased]);

    const result = await t.app.get(CredentialStatusPurgeService).scheduledRun();
    expect(result).toEqual({ ran: true, result: expect.objectContaining({ orphansRevoked: 2 }) });
    expect((await rowsOf(erasedIssuance)).map((r) => r.status)).toEqual([1, 1]);
    expect((await rowsOf(keptIssuance)).map((r) => r.status)).toEqual([0, 0]);
    const token = await tokenOf(keptRefs[0].uri);
    expect([...erasedRefs, ...keptRefs].map((r) => token.status(r.idx))).toEqual([1, 1, 0, 0]);
  });

  it('releases an expired revoked entry after the ttl, and frees its index only after that has reached every cache', async () => {
    const issuanceId = randomUUID();
    const refs = await status.allocate(1, { issuanceId, recordId: null, expiresAt: new Date(Date.now() + DAY) });
    await status.revokeIssuance(issuanceId);
    const listId = refs[0].uri.split('/').pop();
    const [{ used: usedBefore }] = await t.dataSource.query('SELECT used FROM credential_status_lists WHERE id = $1', [listId]);
    const purge = t.app.get(CredentialStatusPurgeService);

    // Expired longer ago than the ttl (300 s), not yet twice the ttl and the refresh margin: its bit goes back to 0.
    await t.dataSource.query(`UPDATE issued_credential_status SET expires_at = now() - interval '400 seconds' WHERE issuance_id = $1`, [issuanceId]);
    expect((await purge.run()).released).toBe(1);
    expect(await rowsOf(issuanceId)).toEqual([{ idx: refs[0].idx, status: 0 }]);
    expect((await tokenOf(refs[0].uri)).status(refs[0].idx)).toBe(0);

    // Past 2 × ttl + refresh + a minute: the row is gone and the list counts one entry less.
    await t.dataSource.query(`UPDATE issued_credential_status SET expires_at = now() - interval '1 hour' WHERE issuance_id = $1`, [issuanceId]);
    expect((await purge.run()).deleted).toBe(1);
    expect(await rowsOf(issuanceId)).toEqual([]);
    const [{ used: usedAfter }] = await t.dataSource.query('SELECT used FROM credential_status_lists WHERE id = $1', [listId]);
    expect(usedAfter).toBe(usedBefore - 1);
    // An expired issuance is not revoked again.
    expect(await status.revokeIssuance(issuanceId)).toEqual({ revoked: 0, total: 0 });
  });
});
