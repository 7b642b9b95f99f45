import * as client from 'openid-client';
import { Clock } from '../../src/common/clock.js';
import { adminClient } from '../support/admin-client.js';
import { answerOnTestPage, type CallbackListener, cibaError, provisioning, provisioningCodeOf, startCallbackListener } from '../support/ciba-flow.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Past the merchant cache's 60 s safety age: the merchant must be read again, as it is after any real verification. */
const PAST_CACHE_AGE_MS = 65_000;
/** An answer that has not come by then never will: the instance is frozen. */
const ANSWER_WITHIN_MS = 15_000;

async function within<T>(what: string, promise: Promise<T>, ms = ANSWER_WITHIN_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The default install (the embedded database, one connection): a CIBA request answered after the merchant left the
 * cache must complete, and the instance must go on answering. The completion once looked the merchant up on a second
 * connection inside its transaction, which the embedded database's one connection can never give: the answer hung,
 * and every query of the instance queued behind it.
 */
describe('CIBA answers on the embedded database, after the merchant cache age', () => {
  let t: TestApp;
  let listener: CallbackListener;
  let poll: client.Configuration;
  let push: client.Configuration;

  beforeAll(async () => {
    t = await startTestApp({ embedded: true, env: { CIBA_POLL_INTERVAL_SECONDS: '1' } });
    listener = await startCallbackListener();
    const admin = adminClient(t.baseUrl, t.adminToken);
    const pollShop = await admin.createMerchant({ name: 'Poll shop', redirect_uris: [REDIRECT_URI], scope: 'openid profile' });
    poll = await discover(`${t.baseUrl}/oidc`, pollShop.client_id, pollShop.client_secret);
    const pushShop = await admin.createMerchant({
      name: 'Push shop',
      redirect_uris: [REDIRECT_URI],
      scope: 'openid profile',
      backchannel_token_delivery_mode: 'push',
      backchannel_client_notification_endpoint: listener.url,
    });
    push = await discover(`${t.baseUrl}/oidc`, pushShop.client_id, pushShop.client_secret);
  }, 120_000);
  afterAll(async () => {
    await listener?.close();
    await t?.close();
  }, 120_000);

  /** A request, then time passes (a person verifying) before the phone answers. */
  const requestThenWait = async (config: client.Configuration, appId: string, extra: Record<string, string> = {}) => {
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid profile',
      login_hint: appId,
      binding_message: provisioning(appId),
      ...extra,
    });
    t.app.get(Clock).advance(PAST_CACHE_AGE_MS);
    return started;
  };

  const stillAnswers = async () => {
    const health = await within('GET /health', fetch(`${t.baseUrl}/health`));
    expect(health.status).toBe(200);
    expect((await within('GET /oidc/jwks', fetch(`${t.baseUrl}/oidc/jwks`))).status).toBe(200);
  };

  it('approves: the page answers, the poll gets the tokens, the instance goes on', async () => {
    const started = await requestThenWait(poll, 'late-approve');
    expect(await within('approve', answerOnTestPage(t.baseUrl, 'late-approve', 'uto-passport', provisioningCodeOf(started)))).toBe(
      '/ciba/test?app_id=late-approve&done=approved',
    );
    const tokens = await within('poll', client.pollBackchannelAuthenticationGrant(poll, started));
    expect(tokens.claims()).toMatchObject({ primary_identifier: 'ERIKSSON' });
    await stillAnswers();
  }, 60_000);

  it('declines: the page answers, the poll gets access_denied', async () => {
    const started = await requestThenWait(poll, 'late-decline');
    expect(await within('decline', answerOnTestPage(t.baseUrl, 'late-decline', 'decline', provisioningCodeOf(started)))).toBe(
      '/ciba/test?app_id=late-decline&done=denied',
    );
    expect(await within('poll', cibaError(client.pollBackchannelAuthenticationGrant(poll, started)))).toMatchObject({ error: 'access_denied' });
    await stillAnswers();
  }, 60_000);

  it('cancels: the merchant cancels a request after the cache age, the poll gets access_denied', async () => {
    const started = await requestThenWait(poll, 'late-cancel');
    await within(
      'cancel',
      client.initiateBackchannelAuthentication(poll, {
        scope: 'openid',
        binding_message: JSON.stringify({ operation: 'cancel', auth_req_id: started.auth_req_id }),
      }),
    );
    expect(await within('poll', cibaError(client.pollBackchannelAuthenticationGrant(poll, started)))).toMatchObject({ error: 'access_denied' });
    await stillAnswers();
  }, 60_000);

  it('pushes: the approval is answered and the tokens reach the callback', async () => {
    const started = await requestThenWait(push, 'late-push', { client_notification_token: 'late-push-token' });
    expect(await within('approve', answerOnTestPage(t.baseUrl, 'late-push', 'uto-passport', provisioningCodeOf(started)))).toBe(
      '/ciba/test?app_id=late-push&done=approved',
    );
    await listener.waitFor(1, ANSWER_WITHIN_MS);
    expect(listener.received[0].body).toMatchObject({ auth_req_id: started.auth_req_id, token_type: 'BEARER' });
    expect(listener.received[0].authorization).toBe('Bearer late-push-token');
    await stillAnswers();
  }, 60_000);
});
