import { randomUUID } from 'node:crypto';
import { adminClient } from '../support/admin-client.js';
import { describeWithPostgres } from '../support/describe-with-postgres.js';
import { startIssuerStateApp, type IssuerStateApp } from '../support/issuer-state-app.js';
import { readStatusListToken } from '../support/status-list-token.js';
import { CredentialStatusService, IssuerKeysService } from '../../src/credential-issuer/issuer-state.js';

const DAY = 86_400_000;
const inAYear = () => new Date(Date.now() + 365 * DAY);

/** Token Status List (statuslist+jwt) of the credential issuer: random indexes, revocation, the cached token, two instances. */
describeWithPostgres('credential issuer status lists', () => {
  let t: IssuerStateApp;
  let status: CredentialStatusService;
  const fetchList = (uri: string, origin = t.origin) => fetch(uri.replace(t.baseUrl, origin));
  const tokenOf = async (uri: string, origin?: string) => (await fetchList(uri, origin)).text();

  beforeAll(async () => {
    t = await startIssuerStateApp({ env: { VCI_STATUS_LIST_REFRESH_SECONDS: '1' } });
    status = t.app.get(CredentialStatusService);
  });
  afterAll(() => t?.close());

  it('allocates distinct random indexes in one list, in the issuance order of nothing', async () => {
    const refs = await status.allocate(20, { issuanceId: randomUUID(), recordId: null, expiresAt: inAYear() });
    const indexes = refs.map((r) => r.idx);
    expect(new Set(indexes).size).toBe(20);
    expect(new Set(refs.map((r) => r.uri)).size).toBe(1);
    expect(refs[0].uri).toMatch(new RegExp(`^${t.baseUrl}/vci/status-lists/[A-Za-z0-9_-]{16}$`));
    // Random over 2^17, not counted up: neither consecutive nor sorted.
    expect([...indexes].sort((a, b) => a - b)).not.toEqual(indexes);
    expect(indexes.some((i, n) => n > 0 && Math.abs(i - indexes[n - 1]) > 1)).toBe(true);
    for (const i of indexes) expect(i >= 0 && i < 2 ** 17).toBe(true);
  });

  it('survives taken indexes: with half of a list taken, every index it answers was free', async () => {
    const [first] = await status.allocate(1, { issuanceId: randomUUID(), recordId: null, expiresAt: inAYear() });
    const listId = first.uri.split('/').pop()!;
    // Every even index taken by another issuance (bypassing the counter, so that the list stays open).
    await t.dataSource.query(
      `INSERT INTO issued_credential_status (list_id, idx, status, issuance_id, expires_at)
       SELECT $1, i, 0, 'filler', now() + interval '1 year' FROM generate_series(0, 131071, 2) AS i ON CONFLICT DO NOTHING`,
      [listId],
    );
    const refs = await status.allocate(10, { issuanceId: randomUUID(), recordId: null, expiresAt: inAYear() });
    expect(refs.every((r) => r.uri === first.uri)).toBe(true);
    expect(refs.every((r) => r.idx % 2 === 1)).toBe(true);
    expect(new Set(refs.map((r) => r.idx)).size).toBe(10);
  });

  it('opens a new list when the current one is nearly full', async () => {
    const [before] = await status.allocate(1, { issuanceId: randomUUID(), recordId: null, expiresAt: inAYear() });
    await t.dataSource.query('UPDATE credential_status_lists SET used = 98300 WHERE id = $1', [before.uri.split('/').pop()]);
    const after = await status.allocate(10, { issuanceId: randomUUID(), recordId: null, expiresAt: inAYear() });
    expect(after[0].uri).not.toBe(before.uri);
    const [closed] = await t.dataSource.query('SELECT open FROM credential_status_lists WHERE id = $1', [before.uri.split('/').pop()]);
    expect(closed.open).toBe(false);
  });

  it('serves the signed token from memory: the same bytes until a revocation, then the revoked bits set', async () => {
    const issuanceA = randomUUID();
    const a = await status.allocate(3, { issuanceId: issuanceA, recordId: null, expiresAt: inAYear() });
    const b = await status.allocate(2, { issuanceId: randomUUID(), recordId: null, expiresAt: inAYear() });
    const res = await fetchList(a[0].uri);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/statuslist\+jwt/);
    expect(res.headers.get('cache-control')).toBe('max-age=300');
    const first = await res.text();
    const root = (await t.app.get(IssuerKeysService).anchors())[0];
    const read = readStatusListToken(first, root);
    expect(read.header).toMatchObject({ alg: 'ES256', typ: 'statuslist+jwt' });
    expect(read.header.x5c).toHaveLength(1);
    expect(read.payload).toMatchObject({ sub: a[0].uri, ttl: 300, status_list: { bits: 1 } });
    expect(read.payload.exp).toBeGreaterThan(read.payload.iat);
    for (const r of [...a, ...b]) expect(read.status(r.idx)).toBe(0);

    // Cached: a later request, after a version check (refresh 1 s), gets the very same token: same iat, and the same
    // ECDSA signature, which a new signing would not give (its nonce is random).
    await new Promise((r) => setTimeout(r, 1100));
    expect(await tokenOf(a[0].uri)).toBe(first);

    const admin = adminClient(t.origin, t.adminToken);
    const revoked = await admin.call('POST', `/admin/v1/credential-issuer/issuances/${issuanceA}/revoke`, { reason: 'holder_request' });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ revoked: 3, total: 3 });
    const after = readStatusListToken(await tokenOf(a[0].uri), root);
    for (const r of a) expect(after.status(r.idx)).toBe(1);
    for (const r of b) expect(after.status(r.idx)).toBe(0);
    // And cached again.
    expect(await tokenOf(a[0].uri)).toBe(await tokenOf(a[0].uri));
  });

  it('answers 404 with the error object for an unknown or malformed list', async () => {
    for (const id of ['AAAAAAAAAAAAAAAA', 'x', '..%2F..%2Fetc']) {
      const res = await fetch(`${t.origin}/vci/status-lists/${id}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: 'not_found', error_description: 'status list not found' });
    }
  });

  it('audits the operator revocations, and refuses what is unknown, malformed or unauthorised', async () => {
    const admin = adminClient(t.origin, t.adminToken);
    const recordId = randomUUID();
    const issuanceId = randomUUID();
    const refs = await status.allocate(2, { issuanceId, recordId, expiresAt: inAYear() });
    const res = await admin.call('POST', `/admin/v1/credential-issuer/revoke-by-verification/${recordId}`, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revoked: 2, total: 2 });
    const audits = await t.dataSource.query(`SELECT action, target_type, target_id, changes FROM audit_records WHERE target_id = $1`, [recordId]);
    expect(audits).toEqual([
      {
        action: 'credential_issuer.revoke_by_verification',
        target_type: 'verification_record',
        target_id: recordId,
        changes: { reason: null, revoked: 2, total: 2 },
      },
    ]);
    // A second time: nothing more to revoke, still answered (and audited).
    expect((await admin.call('POST', `/admin/v1/credential-issuer/issuances/${issuanceId}/revoke`)).body).toEqual({ revoked: 0, total: 2 });
    const read = readStatusListToken(await tokenOf(refs[0].uri));
    for (const r of refs) expect(read.status(r.idx)).toBe(1);

    expect((await admin.call('POST', `/admin/v1/credential-issuer/issuances/${randomUUID()}/revoke`)).status).toBe(404);
    expect((await admin.call('POST', `/admin/v1/credential-issuer/revoke-by-verification/not-a-uuid`)).status).toBe(400);
    expect((await admin.call('POST', `/admin/v1/credential-issuer/issuances/${issuanceId}/revoke`, { reason: 'because' })).status).toBe(400);
    expect((await admin.call('POST', `/admin/v1/credential-issuer/issuances/${issuanceId}/revoke`, {}, '')).status).toBe(401);
  });

  it('another instance on the same database serves the revocation within its refresh interval', async () => {
    const second = await startIssuerStateApp({ sameDatabaseAs: t });
    try {
      const issuanceId = randomUUID();
      const refs = await status.allocate(2, { issuanceId, recordId: null, expiresAt: inAYear() });
      const before = readStatusListToken(await tokenOf(refs[0].uri, second.origin));
      expect(before.status(refs[0].idx)).toBe(0);
      await status.revokeIssuance(issuanceId);
      // VCI_STATUS_LIST_REFRESH_SECONDS=1 (the first's env, shared): the second sees it after its next version check.
      let seen = before;
      for (let i = 0; i < 50 && seen.status(refs[0].idx) === 0; i++) {
        await new Promise((r) => setTimeout(r, 200));
        seen = readStatusListToken(await tokenOf(refs[0].uri, second.origin));
      }
      expect(refs.map((r) => seen.status(r.idx))).toEqual([1, 1]);
    } finally {
      await second.close();
    }
  });
});
