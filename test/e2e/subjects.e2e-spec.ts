import { randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { itWhen, POSTGRES } from '../support/when-available.js';

const secret = () => randomBytes(32).toString('base64url');

/** The sub of the test eID's specimen person as `merchant` sees it on the instance at `baseUrl`. */
async function subOf(baseUrl: string, merchant: client.Configuration): Promise<string> {
  const req = await authorizationRequest(merchant, { scope: 'openid' });
  const { callback } = await loginWithTestEid(baseUrl, req.url, 'uto-passport');
  const tokens = await client.authorizationCodeGrant(merchant, callback, {
    pkceCodeVerifier: req.verifier,
    expectedState: req.state,
    expectedNonce: req.nonce,
  });
  return tokens.claims()!.sub;
}

/** Subjects: public (one keyed sub per document) or pairwise (per merchant, under PAIRWISE_SECRET), chosen per merchant. */
describe('subject types', () => {
  let t: TestApp;
  let admin: ReturnType<typeof adminClient>;

  beforeAll(async () => {
    t = await startTestApp({ env: { SUBJECT_SECRET: secret(), PAIRWISE_SECRET: secret() } });
    admin = adminClient(t.baseUrl, t.adminToken);
  });
  afterAll(() => t?.close());

  const merchant = async (app: TestApp, subjectType?: string) => {
    const m = await admin.createMerchant({
      name: `Subjects ${subjectType ?? 'default'}`,
      redirect_uris: [REDIRECT_URI],
      ...(subjectType ? { subject_type: subjectType } : {}),
    });
    return { m, config: await discover(`${app.baseUrl}/oidc`, m.client_id, m.client_secret) };
  };

  it('registers subject_type through the admin API: public by default, pairwise on request, anything else 400', async () => {
    const plain = await admin.createMerchant({ name: 'Plain', redirect_uris: [REDIRECT_URI] });
    expect(plain.subject_type).toBe('public');
    const pairwise = await admin.createMerchant({ name: 'Pairwise', redirect_uris: [REDIRECT_URI], subject_type: 'pairwise' });
    expect(pairwise.subject_type).toBe('pairwise');
    expect((await admin.call('GET', `/admin/v1/merchants/${pairwise.client_id}`)).body.subject_type).toBe('pairwise');
    const bad = await admin.call('POST', '/admin/v1/merchants', { name: 'Bad', redirect_uris: [REDIRECT_URI], subject_type: 'foo' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields)).toEqual(['subject_type']);
    const patched = await admin.call('PATCH', `/admin/v1/merchants/${plain.client_id}`, { subject_type: 'pairwise' });
    expect([patched.status, patched.body.subject_type]).toEqual([200, 'pairwise']);
    expect((await admin.call('PATCH', `/admin/v1/merchants/${plain.client_id}`, { subject_type: null })).status).toBe(400);
  });

  it('gives a public and a pairwise merchant different subs for the same person; two public merchants the same', async () => {
    const publicA = await subOf(t.baseUrl, (await merchant(t)).config);
    const publicB = await subOf(t.baseUrl, (await merchant(t, 'public')).config);
    const pairwiseA = await subOf(t.baseUrl, (await merchant(t, 'pairwise')).config);
    expect(publicA).toBe(publicB);
    expect(pairwiseA).not.toBe(publicA);
  });

  itWhen(POSTGRES)('changes pairwise subs with PAIRWISE_SECRET (COOKIE_KEYS unchanged), and public subs only with SUBJECT_SECRET', async () => {
    const pairwise = await merchant(t, 'pairwise');
    const plain = await merchant(t, 'public');
    const before = { pairwise: await subOf(t.baseUrl, pairwise.config), plain: await subOf(t.baseUrl, plain.config) };
    const rotated = await startTestApp({ sameDatabaseAs: t, env: { PAIRWISE_SECRET: secret() } });
    try {
      expect(rotated.env.COOKIE_KEYS).toBe(t.env.COOKIE_KEYS);
      const on = async (m: typeof pairwise) => subOf(rotated.baseUrl, await discover(`${rotated.baseUrl}/oidc`, m.m.client_id, m.m.client_secret));
      expect(await on(pairwise)).not.toBe(before.pairwise);
      expect(await on(plain)).toBe(before.plain);
    } finally {
      await rotated.close();
    }
    const resubjected = await startTestApp({ sameDatabaseAs: t, env: { SUBJECT_SECRET: secret() } });
    try {
      const plainThere = await discover(`${resubjected.baseUrl}/oidc`, plain.m.client_id, plain.m.client_secret);
      expect(await subOf(resubjected.baseUrl, plainThere)).not.toBe(before.plain);
    } finally {
      await resubjected.close();
    }
  });
});
