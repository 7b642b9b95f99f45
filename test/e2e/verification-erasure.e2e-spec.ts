import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { decodeJwt } from 'jose';
import { receiveCredentials } from '../../scripts/test-wallet/issuance.js';
import { CredentialStatusPurgeService } from '../../src/credential-issuer/status/credential-status-purge.service.js';
import { VerificationRecordsService } from '../../src/schemes/document-verifier/records/verification-records.service.js';
import { adminClient } from '../support/admin-client.js';
import { offerFor } from '../support/credential-issuer.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The operator erases a verification on the person's request: the evidence goes at once, its credentials are revoked. */
describe('erasure of a verification ahead of retention', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('deletes the record (audited), and the next purge revokes what was issued from it', async () => {
    const { recordId, offer } = await offerFor(t);
    const [credential] = await receiveCredentials({ offerLink: offer.link, txCode: offer.txCode });
    const { status_list: ref } = decodeJwt(credential.credential.split('~')[0]).status as { status_list: { uri: string; idx: number } };
    const statusOf = async () => getListFromStatusListJWT(await (await fetch(ref.uri)).text()).getStatus(ref.idx);
    expect(await statusOf()).toBe(0);

    const admin = adminClient(t.baseUrl, t.adminToken);
    expect((await admin.call('DELETE', `/admin/v1/verifications/${recordId}`)).status).toBe(204);
    expect(await t.app.get(VerificationRecordsService).get(recordId)).toBeUndefined();
    expect((await admin.call('DELETE', `/admin/v1/verifications/${recordId}`)).status).toBe(404);
    expect((await admin.call('DELETE', '/admin/v1/verifications/not-a-uuid')).status).toBe(400);
    const audit = (await t.dataSource.query(`SELECT action, target_id FROM audit_records WHERE action = 'verification.erase'`)) as { target_id: string }[];
    expect(audit.map((a) => a.target_id)).toEqual([recordId]);

    // The issuer learns of it at its next purge: a record gone before its scheduled deletion was erased.
    expect((await t.app.get(CredentialStatusPurgeService).run()).orphansRevoked).toBe(1);
    expect(await statusOf()).toBe(1);
  });
});
