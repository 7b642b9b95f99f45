import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { cibaError, provisioning, provisioningCodeOf } from '../support/ciba-flow.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** customer-test: the test eID answers CIBA requests from a page (no phone), with CSRF-protected forms. */
describe('CIBA test approval page', () => {
  let t: TestApp;
  let config: client.Configuration;

  /** The page for an app id: its cookie, CSRF token and the ids of the open requests shown. */
  const openPage = async (appId: string, cookie?: string) => {
    const res = await fetch(`${t.baseUrl}/ciba/test?app_id=${encodeURIComponent(appId)}`, { headers: cookie ? { cookie } : {} });
    expect(res.status).toBe(200);
    const page = await res.text();
    return {
      cookie: cookie ?? res.headers.get('set-cookie')!.split(';')[0],
      csrf: /name="_csrf" value="([^"]+)"/.exec(page)?.[1],
      ids: [...page.matchAll(/data-request="([^"]+)"/g)].map((m) => m[1]),
      page,
    };
  };
  const post = (path: string, cookie: string | undefined, fields: Record<string, string>) =>
    fetch(`${t.baseUrl}/ciba/test${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(fields),
    });
  const answer = (id: string, cookie: string | undefined, fields: Record<string, string>) => post(`/requests/${id}`, cookie, fields);
  /** The page's lookup with a provisioning code (a POST: the code stays out of the URL). */
  const lookUp = async (cookie: string, csrf: string, appId: string, code: string) => {
    const res = await post('', cookie, { _csrf: csrf, app_id: appId, provisioning_code: code });
    expect(res.status).toBe(200);
    const page = await res.text();
    return { page, ids: [...page.matchAll(/data-request="([^"]+)"/g)].map((m) => m[1]) };
  };

  beforeAll(async () => {
    t = await startTestApp({ env: { CIBA_POLL_INTERVAL_SECONDS: '1' } });
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Page shop', redirect_uris: [REDIRECT_URI], scope: 'openid profile' });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
  });
  afterAll(() => t?.close());

  it('provisions and then authenticates with a specimen holder chosen on the page; another holder is denied', async () => {
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid profile',
      login_hint: 'page-app',
      binding_message: provisioning('page-app'),
    });
    const code = provisioningCodeOf(started);
    // The app id alone shows no provisioning: its one-time code does (as in the app).
    const first = await openPage('page-app');
    expect(first.page).not.toContain('Link your app');
    expect(first.ids).toEqual([]);
    expect((await lookUp(first.cookie, first.csrf!, 'page-app', 'ZZZZZ-ZZZZZ')).ids).toEqual([]);
    expect((await post('', first.cookie, { _csrf: 'forged', app_id: 'page-app', provisioning_code: code })).status).toBe(403);
    const found = await lookUp(first.cookie, first.csrf!, 'page-app', code);
    expect(found.page).toContain('Link your app');
    expect(found.ids).toHaveLength(1);
    const fields = { _csrf: first.csrf!, app_id: 'page-app', provisioning_code: code, person: 'uto-passport', action: 'approve' };
    // CSRF: no cookie, or a token that is not this cookie's, is refused and answers nothing.
    expect((await answer(found.ids[0], undefined, fields)).status).toBe(403);
    expect((await answer(found.ids[0], first.cookie, { ...fields, _csrf: 'forged' })).status).toBe(403);
    // Without the code (the app id alone) the request is not found, and stays open.
    const { provisioning_code: _code, ...withoutCode } = fields;
    expect((await answer(found.ids[0], first.cookie, withoutCode)).status).toBe(404);
    const done = await answer(found.ids[0], first.cookie, fields);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/ciba/test?app_id=page-app&done=approved');
    const provisioned = await client.pollBackchannelAuthenticationGrant(config, started);
    expect(provisioned.claims()).toMatchObject({ primary_identifier: 'ERIKSSON', authentication_result: 'pass' });

    const auth = await client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'page-app' });
    const second = await openPage('page-app', first.cookie);
    expect((await answer(second.ids[0], first.cookie, { ...withoutCode, _csrf: second.csrf! })).status).toBe(303);
    expect((await client.pollBackchannelAuthenticationGrant(config, auth)).claims()!.sub).toBe(provisioned.claims()!.sub);

    const wrong = await client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'page-app' });
    const third = await openPage('page-app', first.cookie);
    const denied = await answer(third.ids[0], first.cookie, { ...withoutCode, _csrf: third.csrf!, person: 'd-idcard' });
    expect(denied.headers.get('location')).toBe('/ciba/test?app_id=page-app&done=denied');
    expect(await cibaError(client.pollBackchannelAuthenticationGrant(config, wrong))).toMatchObject({ error: 'access_denied' });
  }, 60_000);
});
