import * as client from 'openid-client';
import { approveWithVerification, CibaAppClient, type CibaPendingRequest } from '@identity-broker/verifier-sdk';
import { specimenPhone } from '../../scripts/test-app/specimen-phone.js';
import { adminClient } from '../support/admin-client.js';
import { cibaError, provisioning, provisioningCodeOf } from '../support/ciba-flow.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { PENNY, type Person, SHELDON, specimenDocumentDir } from '../support/verifier-flow.js';

/**
 * CIBA end to end (issue 10 acceptance): openid-client as the merchant, the SDK as the phone (CibaAppClient +
 * the test app's specimen phone), a specimen document: provisioning binds the app, authentication is approved
 * by a fresh verification of the same person, refused for anyone else.
 */
describe('CIBA provisioning and authentication with the app and a document verification', () => {
  let t: TestApp;
  let config: client.Configuration;
  let documentDir: string;
  const appId = 'phone-7c1e';
  const appSecret = 'install-secret-0123456789abcdef0123456789';
  let phoneApp: CibaAppClient;
  let provisionedSub: string;
  let idToken: string;

  const phone = (person: Person) => specimenPhone({ documentDir, selfie: person.center, left: person.left, right: person.right });
  /** The app's long poll: the next request for it. */
  const nextRequest = async (app = phoneApp): Promise<CibaPendingRequest> => {
    const { requests } = await app.pending(undefined, 10);
    if (!requests.length) throw new Error('no request reached the app');
    return requests[requests.length - 1];
  };

  beforeAll(async () => {
    t = await startTestApp({ env: { CIBA_POLL_INTERVAL_SECONDS: '1' } });
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({
      name: 'CIBA bank',
      redirect_uris: [REDIRECT_URI],
      scope: 'openid profile ssn',
      backchannel_user_code_parameter: true,
    });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    documentDir = await specimenDocumentDir(t.baseUrl);
    phoneApp = new CibaAppClient(`${t.baseUrl}/app/v1`, appId, appSecret);
  }, 120_000);
  afterAll(() => t?.close(), 120_000);

  it('provisions the app: the user verifies a document in the app, the merchant polls the ID token with the verifier claims', async () => {
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid profile ssn',
      login_hint: appId,
      binding_message: provisioning(appId),
    });
    expect(started.interval).toBe(1);
    const tokens = client.pollBackchannelAuthenticationGrant(config, started);
    // The merchant shows its user the code of its answer; the user types it into the app.
    const linking = phoneApp.usingProvisioningCode(provisioningCodeOf(started));
    const request = await nextRequest(linking);
    expect(request).toMatchObject({ kind: 'provisioning', merchant_name: 'CIBA bank', binding_message: 'Link your app' });
    const { outcome, result } = await approveWithVerification(linking, request, phone(SHELDON), '4711');
    expect(outcome.authentication_result).toBe('pass');
    expect(result).toEqual({ state: 'approved' });
    const done = await tokens;
    const claims = done.claims()!;
    expect(claims).toMatchObject({
      authentication_result: 'pass',
      primary_identifier: 'NORDMANN',
      personal_number: '15018012345',
      document_number: 'FH7654321',
    });
    expect(claims.amr).toEqual(expect.arrayContaining(['sc', 'face']));
    provisionedSub = claims.sub;
    idToken = done.id_token!;
    // The binding is personal data: sealed like the rest, looked up by keyed hashes (no app id, sub or secret in clear).
    const rows: { text: string }[] = await t.dataSource.query(`SELECT row_to_json(b)::text AS text FROM ciba_app_bindings b`);
    expect(rows).toHaveLength(1);
    for (const secret of [appId, claims.sub, '4711', 'NORDMANN', '15018012345']) expect([secret, rows[0].text.includes(secret)]).toEqual([secret, false]);
  }, 300_000);

  it('refuses an authentication without the user_code with missing_user_code, and a wrong one with invalid_user_code', async () => {
    expect(await cibaError(client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: appId }))).toMatchObject({
      error: 'missing_user_code',
    });
    expect(await cibaError(client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: appId, user_code: '0000' }))).toMatchObject({
      error: 'invalid_user_code',
    });
  });

  it('authenticates through the bound app: a fresh verification of the same person gives the same sub', async () => {
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid profile',
      login_hint: appId,
      user_code: '4711',
      binding_message: JSON.stringify({ requestType: 'Authentication', bindingMessage: 'Log in to CIBA bank' }),
    });
    const tokens = client.pollBackchannelAuthenticationGrant(config, started);
    const request = await nextRequest();
    expect(request).toMatchObject({ kind: 'authentication', binding_message: 'Log in to CIBA bank' });
    expect((await approveWithVerification(phoneApp, request, phone(SHELDON))).result).toEqual({ state: 'approved' });
    const claims = (await tokens).claims()!;
    expect(claims.sub).toBe(provisionedSub);
    expect(claims).toMatchObject({ authentication_result: 'pass', primary_identifier: 'NORDMANN' });
    expect(claims).not.toHaveProperty('personal_number'); // ssn was not asked this time
  }, 300_000);

  it('keeps authentication requests from an app instance without the bound secret', async () => {
    const started = await client.initiateBackchannelAuthentication(config, { scope: 'openid', id_token_hint: idToken, user_code: '4711' });
    const impostor = new CibaAppClient(`${t.baseUrl}/app/v1`, appId, 'another-install-secret-0123456789abcdef');
    expect((await impostor.pending()).requests).toEqual([]);
    // Its long poll is not even held: its secret is not the bound app's (401 at once).
    await expect(impostor.pending(undefined, 1)).rejects.toMatchObject({ status: 401, error: 'unauthorized' });
    const request = await nextRequest(); // id_token_hint found the bound app
    await expect(impostor.decline(request.id)).rejects.toMatchObject({ status: 401 });
    // The real app declines: the merchant gets access_denied.
    expect(await phoneApp.decline(request.id)).toMatchObject({ state: 'denied' });
    expect(await cibaError(client.pollBackchannelAuthenticationGrant(config, started))).toMatchObject({ error: 'access_denied' });
  });

  it('denies an authentication whose verification does not prove the bound person (access_denied)', async () => {
    const started = await client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: appId, user_code: '4711' });
    const request = await nextRequest();
    const { outcome, result } = await approveWithVerification(phoneApp, request, phone(PENNY));
    expect(outcome.authentication_result).toBe('fail');
    expect(result.state).toBe('denied');
    expect(await cibaError(client.pollBackchannelAuthenticationGrant(config, started))).toMatchObject({ error: 'access_denied' });
  }, 300_000);
});
