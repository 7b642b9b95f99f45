import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import { describeWithPostgres } from '../support/describe-with-postgres.js';
import { startIssuerStateApp, type IssuerStateApp } from '../support/issuer-state-app.js';
import { CredentialStatusService, IssuerKeysService } from '../../src/credential-issuer/issuer-state.js';
import { StatusListTokens } from '../../src/credential-issuer/status/status-list-tokens.service.js';
import { OwnCredentialTrust } from '../../src/credential-issuer/trust/own-credential-trust.js';

const inAYear = () => new Date(Date.now() + 365 * 86_400_000);

/**
 * The status of the service's own credentials, answered in process by the issuer (ReusableCredentialProvider.statusOf)
 * from the state its status-list endpoint serves: no HTTP request, no query beyond the versions' refresh, a revocation
 * seen at once by the instance that made it and within VCI_STATUS_LIST_REFRESH_SECONDS by another.
 */
describeWithPostgres('own credential status, in process', () => {
  let t: IssuerStateApp;
  let status: CredentialStatusService;
  let trust: OwnCredentialTrust;
  let statusListRequests = 0;
  const trustOn = (app: IssuerStateApp) => new OwnCredentialTrust(app.config, app.app.get(IssuerKeysService), app.app.get(StatusListTokens));

  beforeAll(async () => {
    t = await startIssuerStateApp({ env: { VCI_STATUS_LIST_REFRESH_SECONDS: '1' } });
    status = t.app.get(CredentialStatusService);
    trust = trustOn(t);
    (t.app.getHttpServer() as Server).on('request', (req: IncomingMessage) => {
      if (req.url?.startsWith('/vci/status-lists/')) statusListRequests++;
    });
  });
  afterAll(() => t?.close());

  it('answers VALID, then INVALID right after this instance revokes, without an HTTP request for the list', async () => {
    const issuanceId = randomUUID();
    const refs = await status.allocate(2, { issuanceId, recordId: null, expiresAt: inAYear() });
    const other = await status.allocate(1, { issuanceId: randomUUID(), recordId: null, expiresAt: inAYear() });
    expect(await Promise.all([...refs, ...other].map((r) => trust.statusOf(r)))).toEqual([0, 0, 0]);
    await status.revokeIssuance(issuanceId);
    expect(await Promise.all([...refs, ...other].map((r) => trust.statusOf(r)))).toEqual([1, 1, 0]);
    expect(statusListRequests).toBe(0);
  });

  it('reads no row per lookup: at most the versions of the lists, as serving the token does', async () => {
    const [ref] = await status.allocate(1, { issuanceId: randomUUID(), recordId: null, expiresAt: inAYear() });
    await trust.statusOf(ref);
    // A pass-through spy on the real data source (not a mock): which statements the lookups send.
    const spy = jest.spyOn(t.dataSource, 'query');
    try {
      for (let i = 0; i < 20; i++) expect(await trust.statusOf(ref)).toBe(0);
      const statements = spy.mock.calls.map(([sql]) => sql);
      expect(statements.every((sql) => sql === 'SELECT id, version::text AS version FROM credential_status_lists')).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });

  it('claims only its own lists: another uri is left to HTTP, an unknown list or index of its own is INVALID', async () => {
    const [ref] = await status.allocate(1, { issuanceId: randomUUID(), recordId: null, expiresAt: inAYear() });
    const listId = ref.uri.split('/').pop()!;
    const port = new URL(t.baseUrl).port;
    for (const uri of [
      `https://issuer.example/vci/status-lists/${listId}`,
      ref.uri.replace(`:${port}/`, `:${port}0/`),
      `${t.baseUrl}/vci/status-list/${listId}`,
      `${t.baseUrl}.evil.example/vci/status-lists/${listId}`,
      '',
    ]) {
      expect([uri, await trust.statusOf({ uri, idx: ref.idx })]).toEqual([uri, undefined]);
    }
    for (const [uri, idx] of [
      [`${t.baseUrl}/vci/status-lists/AAAAAAAAAAAAAAAA`, 0],
      [`${t.baseUrl}/vci/status-lists/x`, 0],
      [`${t.baseUrl}/vci/status-lists/${listId}/`, 0],
      [`${t.baseUrl}/vci/status-lists/${listId}?x=1`, 0],
      [ref.uri, -1],
      [ref.uri, 2 ** 17],
      [ref.uri, 1.5],
      [ref.uri, Number.NaN],
    ] as [string, number][]) {
      expect([uri, idx, await trust.statusOf({ uri, idx })]).toEqual([uri, idx, 1]);
    }
  });

  it('another instance on the same database answers the revocation within its refresh interval', async () => {
    const second = await startIssuerStateApp({ sameDatabaseAs: t });
    try {
      const secondTrust = trustOn(second);
      const issuanceId = randomUUID();
      const [ref] = await status.allocate(1, { issuanceId, recordId: null, expiresAt: inAYear() });
      expect(await secondTrust.statusOf(ref)).toBe(0);
      await status.revokeIssuance(issuanceId);
      // VCI_STATUS_LIST_REFRESH_SECONDS=1 (shared env): seen after the second's next version check.
      let seen = 0;
      for (let i = 0; i < 50 && seen === 0; i++) {
        await new Promise((r) => setTimeout(r, 200));
        seen = (await secondTrust.statusOf(ref)) ?? -1;
      }
      expect(seen).toBe(1);
    } finally {
      await second.close();
    }
  });
});
