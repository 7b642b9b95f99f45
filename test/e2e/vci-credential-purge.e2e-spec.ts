import { randomUUID } from 'node:crypto';
import { describeWithPostgres } from '../support/describe-with-postgres.js';
import { startIssuerStateApp, type IssuerStateApp } from '../support/issuer-state-app.js';
import { readStatusListToken } from '../support/status-list-token.js';
import { CredentialStatusService } from '../../src/credential-issuer/issuer-state.js';
import { CredentialStatusPurgeService } from '../../src/credential-issuer/status/credential-status-purge.service.js';

const DAY = 86_400_000;

/** The issuer's purge job: credentials of an erased verification record are revoked; expired ones leave their list. */
describeWithPostgres('credential issuer purge', () => {
  let t: IssuerStateApp;
  let status: CredentialStatusService;
  const tokenOf = async (uri: string) => readStatusListToken(await (await fetch(uri.replace(t.baseUrl, t.origin))).text());
  const rowsOf = async (issuanceId: string) =>
    (await t.dataSource.query('SELECT idx, status FROM issued_credential_status WHERE issuance_id = $1 ORDER BY idx', [issuanceId])) as {
      idx: number;
      status: number;
    }[];

  beforeAll(async () => {
    t = await startIssuerStateApp();
    status = t.app.get(CredentialStatusService);
  });
  afterAll(() => t?.close());

  const insertRecord = (id: string, deleteAfter: string) =>
    t.dataSource.query(
      `INSERT INTO verification_records (id, client_id, sealed, key_id, delete_after) VALUES ($1, 'merchant', 'v1.k1.x.y.z', 'k1', now() + $2::interval)`,
      [id, deleteAfter],
    );

  it('revokes the credentials whose verification record was erased before its retention ended, and only those', async () => {
    const kept = randomUUID();
    const erased = randomUUID();
    await insertRecord(kept, '30 days');
    await insertRecord(erased, '30 days');
    const keptIssuance = randomUUID();
    const erasedIssuance = randomUUID();
    const missingIssuance = randomUUID();
    const keptRefs = await status.allocate(2, { issuanceId: keptIssuance, recordId: kept, expiresAt: new Date(Date.now() + 300 * DAY) });
    const erasedRefs = await status.allocate(2, { issuanceId: erasedIssuance, recordId: erased, expiresAt: new Date(Date.now() + 300 * DAY) });
    // A record already gone when its credentials were issued has no scheduled deletion to go by: an orphan too.
    await status.allocate(1, { issuanceId: missingIssuance, recordId: randomUUID(), expiresAt: new Date(Date.now() + 300 * DAY) });
    // The status rows keep the record's scheduled deletion as it was at issuance.
    const [{ same }] = await t.dataSource.query(
      'SELECT bool_and(s.record_delete_after = v.delete_after) AS same FROM issued_credential_status s JOIN verification_records v ON v.id = s.verification_record_id WHERE s.issuance_id = ANY($1)',
      [[keptIssuance, erasedIssuance]],
    );
    expect(same).toBe(true);
    // The operator's erasure: the record goes 30 days before its retention would have deleted it.
    await t.dataSource.query('DELETE FROM verification_records WHERE id = $1', [erased]);

    const result = await t.app.get(CredentialStatusPurgeService).scheduledRun();
    expect(result).toEqual({ ran: true, result: expect.objectContaining({ orphansRevoked: 3 }) });
    expect((await rowsOf(erasedIssuance)).map((r) => r.status)).toEqual([1, 1]);
    expect((await rowsOf(missingIssuance)).map((r) => r.status)).toEqual([1]);
    expect((await rowsOf(keptIssuance)).map((r) => r.status)).toEqual([0, 0]);
    const token = await tokenOf(keptRefs[0].uri);
    expect([...erasedRefs, ...keptRefs].map((r) => token.status(r.idx))).toEqual([1, 1, 0, 0]);
  });

  it('keeps the credentials whose record ended by its retention: they live on to their own expiry', async () => {
    const recordId = randomUUID();
    await insertRecord(recordId, '90 days');
    const issuanceId = randomUUID();
    const refs = await status.allocate(2, { issuanceId, recordId, expiresAt: new Date(Date.now() + 365 * DAY) });
    // 91 days later (the database's clock cannot be moved, so both times move back instead): the record's retention
    // has ended and the verifier's purge deleted it, as VERIFICATION_RETENTION_DAYS says.
    await t.dataSource.query(`UPDATE verification_records SET delete_after = delete_after - interval '91 days' WHERE id = $1`, [recordId]);
    await t.dataSource.query(`UPDATE issued_credential_status SET record_delete_after = record_delete_after - interval '91 days' WHERE issuance_id = $1`, [
      issuanceId,
    ]);
    await t.dataSource.query('DELETE FROM verification_records WHERE id = $1 AND delete_after <= now()', [recordId]);
    expect(await t.dataSource.query('SELECT id FROM verification_records WHERE id = $1', [recordId])).toEqual([]);

    expect((await t.app.get(CredentialStatusPurgeService).run()).orphansRevoked).toBe(0);
    expect((await rowsOf(issuanceId)).map((r) => r.status)).toEqual([0, 0]);
    const token = await tokenOf(refs[0].uri);
    expect(refs.map((r) => token.status(r.idx))).toEqual([0, 0]);
    // The operator can still revoke them by the record's id.
    expect(await status.revokeByRecord(recordId)).toEqual({ revoked: 2, total: 2 });
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
