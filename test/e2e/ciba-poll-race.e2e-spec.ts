import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { answerOnTestPage, pollOnce, provisionOnTestPage } from '../support/ciba-flow.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { canShareDatabase, startTestApp, type TestApp } from '../support/test-app.js';

const TRIALS = Number(process.env.CIBA_RACE_TRIALS ?? 25);
const POLLS = 6;

/**
 * An approved backchannel request is consumed once (as a code is, spec 3): of six polls at once exactly one
 * gets the token response, the others invalid_grant. Polls race for real: spread over two instances on one
 * PostgreSQL database; with TEST_REDIS_URL the access tokens live in Redis. The embedded database runs one
 * query at a time, in order, so the bad interleaving cannot arise there by chance: the second test forces it.
 * Before the fix about 1 trial in 60 lost every poll (PostgreSQL, with or without Redis); CIBA_RACE_TRIALS=100 to measure.
 */
describe('single use of an approved CIBA request under concurrent polls', () => {
  let a: TestApp;
  let b: TestApp;
  let merchant: { client_id: string; client_secret: string };
  let config: client.Configuration;
  const appId = 'race-phone';

  beforeAll(async () => {
    a = await startTestApp({ env: { CIBA_POLL_INTERVAL_SECONDS: '1' } });
    b = canShareDatabase() ? await startTestApp({ sameDatabaseAs: a }) : a;
    merchant = await adminClient(a.baseUrl, a.adminToken).createMerchant({ name: 'Race bank', redirect_uris: [REDIRECT_URI], scope: 'openid profile' });
    config = await discover(`${a.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
    await provisionOnTestPage(a.baseUrl, config, appId, 'uto-passport');
  });
  afterAll(async () => {
    if (b !== a) await b?.close();
    await a?.close();
  });

  const userinfo = (accessToken: string) => fetch(`${a.baseUrl}/oidc/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });

  it(
    `answers exactly one of ${POLLS} simultaneous polls with tokens, the others invalid_grant (${TRIALS} trials)`,
    async () => {
      const failed: { trial: number; answers: string[] }[] = [];
      for (let trial = 0; trial < TRIALS; trial++) {
        const { auth_req_id: authReqId } = await client.initiateBackchannelAuthentication(config, { scope: 'openid profile', login_hint: appId });
        expect(await answerOnTestPage(a.baseUrl, appId, 'uto-passport')).toContain('done=approved');
        const apps = Array.from({ length: POLLS }, (_, i) => (i % 2 ? b : a));
        const answers = await Promise.all(apps.map((app) => pollOnce(app.baseUrl, merchant.client_id, merchant.client_secret, authReqId)));
        const won = answers.filter((r) => r.status === 200);
        const lostAsReplays = answers.filter((r) => r.status === 400 && r.body.error === 'invalid_grant');
        if (won.length !== 1 || lostAsReplays.length !== POLLS - 1)
          failed.push({ trial, answers: answers.map((r) => `${r.status} ${String(r.body.error ?? 'tokens')}`) });
        for (const r of won) {
          expect(r.body).toMatchObject({ token_type: 'BEARER', access_token: expect.any(String), id_token: expect.any(String) });
          // The other polls were replays of a consumed request: as for a code, the grant is revoked (the engine's rule).
          expect((await userinfo(r.body.access_token as string)).status).toBe(401);
        }
      }
      expect(failed).toEqual([]);
    },
    60_000 + TRIALS * 2_000,
  );

  /**
   * The worst order of such a race, made certain: another poll's revocation lands the instant this one has
   * consumed the request, before the engine reads the grant (its CIBA handler reads it after consuming). A
   * trigger in this test's own database stands in for that poll; it revokes as GrantRevocation does.
   */
  it('answers the poll that consumed the request even when a replay revokes the grant right after', async () => {
    await a.dataSource.query(`CREATE FUNCTION test_replay_revokes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN DELETE FROM oidc_payloads WHERE grant_id = NEW.grant_id OR (model = 'Grant' AND id = NEW.grant_id); RETURN NULL; END $$`);
    await a.dataSource.query(`CREATE TRIGGER test_replay_revokes AFTER UPDATE OF consumed_at ON oidc_payloads FOR EACH ROW
      WHEN (NEW.model = 'BackchannelAuthenticationRequest' AND OLD.consumed_at IS NULL AND NEW.consumed_at IS NOT NULL) EXECUTE FUNCTION test_replay_revokes()`);
    try {
      const { auth_req_id: authReqId } = await client.initiateBackchannelAuthentication(config, { scope: 'openid profile', login_hint: appId });
      expect(await answerOnTestPage(a.baseUrl, appId, 'uto-passport')).toContain('done=approved');
      const answer = await pollOnce(a.baseUrl, merchant.client_id, merchant.client_secret, authReqId);
      expect(answer).toMatchObject({ status: 200, body: { access_token: expect.any(String), id_token: expect.any(String) } });
      expect((await userinfo(answer.body.access_token as string)).status).toBe(401);
      expect(await pollOnce(a.baseUrl, merchant.client_id, merchant.client_secret, authReqId)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    } finally {
      await a.dataSource.query(`DROP TRIGGER test_replay_revokes ON oidc_payloads`);
      await a.dataSource.query(`DROP FUNCTION test_replay_revokes()`);
    }
  });
});
