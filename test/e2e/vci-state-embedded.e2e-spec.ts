import { randomUUID } from 'node:crypto';
import { startIssuerStateApp, type IssuerStateApp } from '../support/issuer-state-app.js';
import { readStatusListToken } from '../support/status-list-token.js';
import { CredentialStatusService, IssuerKeysService } from '../../src/credential-issuer/issuer-state.js';
import { CredentialStatusPurgeService } from '../../src/credential-issuer/status/credential-status-purge.service.js';

/** customer-test's default database is the embedded one: the same SQL (allocation, revocation, purge) runs there. */
describe('credential issuer state on the embedded database', () => {
  let t: IssuerStateApp;
  beforeAll(async () => {
    t = await startIssuerStateApp({ embedded: true });
  });
  afterAll(() => t?.close());

  it('allocates, revokes, serves and purges', async () => {
    const status = t.app.get(CredentialStatusService);
    const issuanceId = randomUUID();
    const refs = await status.allocate(5, { issuanceId, recordId: randomUUID(), expiresAt: new Date(Date.now() + 86_400_000) });
    expect(new Set(refs.map((r) => r.idx)).size).toBe(5);
    expect(await status.revokeIssuance(issuanceId)).toEqual({ revoked: 5, total: 5 });
    const root = (await t.app.get(IssuerKeysService).anchors())[0];
    const token = readStatusListToken(await (await fetch(refs[0].uri.replace(t.baseUrl, t.origin))).text(), root);
    expect(refs.map((r) => token.status(r.idx))).toEqual([1, 1, 1, 1, 1]);
    expect(await t.app.get(CredentialStatusPurgeService).scheduledRun()).toEqual({
      ran: true,
      result: { orphansRevoked: 0, released: 0, deleted: 0, keys: 0 },
    });
  });
});
