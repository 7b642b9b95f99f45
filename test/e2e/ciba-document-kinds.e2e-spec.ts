import * as client from 'openid-client';
import { approveWithVerification, CibaAppClient, VerifierClient } from '@identity-broker/verifier-sdk';
import { specimenPhone } from '../../scripts/test-app/specimen-phone.js';
import { adminClient } from '../support/admin-client.js';
import { answerOnTestPage, cibaError, provisioning, provisioningCodeOf } from '../support/ciba-flow.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { SHELDON, specimenDocumentDir } from '../support/verifier-flow.js';

/**
 * Spec 4.7 through CIBA (issue 10 point 5): binding_message `ntdr-doc-types` restricts the document the approving
 * verification accepts, and `ntdr-app-doclist` whether the app shows its document list.
 */
describe('CIBA: ntdr-doc-types and ntdr-app-doclist restrict the verification', () => {
  let t: TestApp;
  let config: client.Configuration;

  beforeAll(async () => {
    t = await startTestApp({ env: { CIBA_POLL_INTERVAL_SECONDS: '1' } });
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Kinds shop', redirect_uris: [REDIRECT_URI], scope: 'openid profile' });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
  }, 120_000);
  afterAll(() => t?.close(), 120_000);

  it('refuses an ID card specimen read by the app for a request restricted to passports (STATUS_BAD_DOCUMENTTYPE, access_denied)', async () => {
    const binding_message = provisioning('kinds-phone', { 'ntdr-doc-types': 'P', 'ntdr-app-doclist': true });
    const first = await client.initiateBackchannelAuthentication(config, { scope: 'openid profile', login_hint: 'kinds-phone', binding_message });
    const installed = new CibaAppClient(`${t.baseUrl}/app/v1`, 'kinds-phone', 'kinds-install-secret-0123456789abcdef0123');
    const app = installed.usingProvisioningCode(provisioningCodeOf(first));
    const [request] = (await app.pending(undefined, 5)).requests;
    expect(request.document_kinds).toEqual(['P']);

    // The verification session the approval opens carries the restriction and the document-list choice.
    const { session_link } = await app.approve(request.id);
    const { client: session, qrToken } = VerifierClient.fromLink(session_link!);
    expect((await session.open(qrToken)).requirements).toMatchObject({ document_kinds: ['P'], show_document_list: true });
    await app.decline(request.id);

    const again = await client.initiateBackchannelAuthentication(config, { scope: 'openid profile', login_hint: 'kinds-phone', binding_message });
    const retry = installed.usingProvisioningCode(provisioningCodeOf(again));
    const [second] = (await retry.pending(undefined, 5)).requests;
    const idCard = await specimenDocumentDir(t.baseUrl, 'd-idcard');
    const { outcome, result } = await approveWithVerification(
      retry,
      second,
      specimenPhone({ documentDir: idCard, selfie: SHELDON.center, left: SHELDON.left, right: SHELDON.right }),
    );
    expect(outcome.authentication_result).toBe('fail');
    expect(String(outcome.result_explanation).split(',')).toEqual(['STATUS_BAD_DOCUMENTTYPE']);
    expect(result).toEqual({ state: 'denied', reason: 'the document verification failed' });
    expect(await cibaError(client.pollBackchannelAuthenticationGrant(config, again))).toMatchObject({ error: 'access_denied' });
  }, 240_000);

  it('applies the restriction on the customer-test page too: an ID card holder is denied for passports only, a passport holder approved', async () => {
    const onlyPassports = provisioning('kinds-page', { 'ntdr-doc-types': 'P' });
    const refused = await client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'kinds-page', binding_message: onlyPassports });
    expect(await answerOnTestPage(t.baseUrl, 'kinds-page', 'd-idcard', provisioningCodeOf(refused))).toBe('/ciba/test?app_id=kinds-page&done=denied');
    expect(await cibaError(client.pollBackchannelAuthenticationGrant(config, refused))).toMatchObject({ error: 'access_denied' });

    const accepted = await client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'kinds-page', binding_message: onlyPassports });
    expect(await answerOnTestPage(t.baseUrl, 'kinds-page', 'uto-passport', provisioningCodeOf(accepted))).toBe('/ciba/test?app_id=kinds-page&done=approved');
    expect((await client.pollBackchannelAuthenticationGrant(config, accepted)).claims()).toMatchObject({ authentication_result: 'pass' });

    // ID cards only: the same ID card holder passes.
    const cards = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'kinds-card',
      binding_message: provisioning('kinds-card', { 'ntdr-doc-types': 'I' }),
    });
    expect(await answerOnTestPage(t.baseUrl, 'kinds-card', 'd-idcard', provisioningCodeOf(cards))).toBe('/ciba/test?app_id=kinds-card&done=approved');
    expect((await client.pollBackchannelAuthenticationGrant(config, cards)).claims()).toMatchObject({ authentication_result: 'pass' });
  }, 60_000);
});
