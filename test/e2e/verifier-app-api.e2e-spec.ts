import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as client from 'openid-client';
import { VerifierClient } from '@identity-broker/verifier-sdk';
import { specimenPhone } from '../../scripts/test-app/specimen-phone.js';
import { Clock } from '../../src/common/clock.js';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover } from '../support/oidc-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { REDIRECT_URI, SHELDON, specimenDocumentDir, refused } from '../support/verifier-flow.js';
import { verifierConfig } from '../../src/schemes/document-verifier/config/verifier-config.js';

/** The app API refuses what does not fit, clearly, and changes nothing when it does. */
describe('verifier app API failure paths', () => {
  let t: TestApp;
  let config: client.Configuration;
  let documentDir: string;

  const newSession = async (extra: Record<string, string> = {}) => {
    const browser = new TestBrowser(t.baseUrl);
    const page = await browser.follow(await browser.get((await authorizationRequest(config, extra)).url.toString()));
    const link = /<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(page.html)![1].replace(/&amp;/g, '&');
    return { ...VerifierClient.fromLink(link), browser, page };
  };
  const chip = (dir = documentDir) => {
    const read = (n: string) => new Uint8Array(readFileSync(join(dir, n)));
    return {
      sod: read('sod.bin'),
      dataGroups: new Map([
        [1, read('dg1.bin')],
        [2, read('dg2.bin')],
        [11, read('dg11.bin')],
        [14, read('dg14.bin')],
        [15, read('dg15.bin')],
      ]),
    };
  };

  beforeAll(async () => {
    t = await startTestApp();
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'App API', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    documentDir = await specimenDocumentDir(t.baseUrl);
  });
  afterAll(() => t?.close());

  it('opens a session once; an unknown or used token is refused', async () => {
    const { client: sdk, qrToken } = await newSession();
    const opened = await sdk.open(qrToken);
    expect(opened.requirements).toMatchObject({ document_kinds: ['P', 'I', 'D', 'V'], show_document_list: true });
    expect((await refused(new VerifierClient(`${t.baseUrl}/app/v1`).open(qrToken))).status).toBe(409);
    expect((await refused(new VerifierClient(`${t.baseUrl}/app/v1`).open('x'.repeat(32)))).status).toBe(404);
    const bad = await refused(new VerifierClient(`${t.baseUrl}/app/v1`).open('not a token!'));
    expect([bad.status, bad.error]).toEqual([400, 'invalid_request']);
  });

  it('shapes the session from binding_message (document kinds, transaction text)', async () => {
    const binding = JSON.stringify({ 'ntdr-doc-types': 'P', transactiontext: Buffer.from('Pay 100 NOK').toString('base64'), bindingMessage: 'ABC-123' });
    const { client: sdk, qrToken, page } = await newSession({ binding_message: binding });
    expect(page.html).toContain('ABC-123');
    const opened = await sdk.open(qrToken);
    expect(opened.requirements).toEqual({
      document_kinds: ['P'],
      show_document_list: false,
      binding_message: 'ABC-123',
      transaction_text: { type: 'text', content: 'Pay 100 NOK' },
    });
  });

  it('refuses steps out of order with 409 and without a token with 401', async () => {
    const { client: sdk, qrToken } = await newSession();
    await sdk.open(qrToken);
    expect((await refused(sdk.livenessChallenge())).status).toBe(409);
    expect((await refused(sdk.uploadFace('x', [{ step: 0, image: SHELDON.center, capturedAt: new Date() }]))).error).toBe('wrong_session_state');
    const anonymous = await fetch(`${t.baseUrl}/app/v1/session`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('refuses unreadable chip data (422) and leaves the session ready for a retry', async () => {
    const { client: sdk, qrToken } = await newSession();
    await sdk.open(qrToken);
    const noDg2 = chip();
    noDg2.dataGroups.delete(2);
    expect((await refused(sdk.uploadChip(noDg2))).status).toBe(422);
    const garbage = await refused(sdk.uploadChip({ sod: new Uint8Array([1, 2, 3]), dataGroups: chip().dataGroups }));
    expect([garbage.status, garbage.error]).toEqual([422, 'unusable_chip_data']);
    expect((await sdk.status()).state).toBe('opened');
    const challenge = await sdk.activeAuthChallenge();
    expect(challenge).toHaveLength(8);
    // A genuine chip answers the challenge (without the answer its clone detection fails and the session ends).
    const phone = specimenPhone({ documentDir, selfie: SHELDON.center });
    expect(await sdk.uploadChip(await phone.readChip(challenge))).toEqual({ received: true, next: 'face' });
    expect((await sdk.status()).state).toBe('chip_received');
  });

  it('answers malformed bodies with 400 and a message per field', async () => {
    const { qrToken } = await newSession();
    const opened = (await (
      await fetch(`${t.baseUrl}/app/v1/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ qr_token: qrToken }),
      })
    ).json()) as { session_token: string };
    const post = (body: string) =>
      fetch(`${t.baseUrl}/app/v1/session/chip`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${opened.session_token}` },
        body,
      });
    const wrongTypes = await post(JSON.stringify({ sod: 5, data_groups: 'x', extra: true }));
    expect(wrongTypes.status).toBe(400);
    expect(Object.keys(((await wrongTypes.json()) as { fields: object }).fields).sort()).toEqual(['data_groups', 'extra', 'sod']);
    const notJson = await post('{"sod": ');
    expect(notJson.status).toBe(400);
    const badGroup = await post(JSON.stringify({ sod: 'AAAA', data_groups: { '99': 'AAAA' } }));
    expect(badGroup.status).toBe(422);
    expect(await badGroup.json()).toMatchObject({ error: 'unusable_chip_data' });
  });

  it('refuses a request body over the size limit with 413', async () => {
    const { client: sdk, qrToken } = await newSession();
    await sdk.open(qrToken);
    const huge = await fetch(`${t.baseUrl}/app/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ qr_token: 'x'.repeat(9 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: 'payload_too_large' });
  });

  it('refuses stale liveness frames: after the challenge window, or captured before the challenge', async () => {
    const { client: sdk, qrToken } = await newSession();
    await sdk.open(qrToken);
    const phone = specimenPhone({ documentDir, selfie: SHELDON.center, right: SHELDON.right, left: SHELDON.left });
    await sdk.uploadChip(await phone.readChip(await sdk.activeAuthChallenge()));
    const old = await sdk.livenessChallenge();
    const oldFrames = (await phone.captureFrames(old)).map((f) => ({ ...f, capturedAt: new Date(Date.now() - 10 * 60_000) }));
    const early = await refused(sdk.uploadFace(old.challenge_id, oldFrames));
    expect([early.status, early.error]).toEqual([410, 'liveness_expired']);
    const clock = t.app.get(Clock);
    clock.advance(verifierConfig(t.config).livenessWindowSeconds * 1000 + 1000);
    try {
      const late = await refused(sdk.uploadFace(old.challenge_id, await phone.captureFrames(old)));
      expect([late.status, late.error]).toEqual([410, 'liveness_expired']);
    } finally {
      clock.advance(-(verifierConfig(t.config).livenessWindowSeconds * 1000 + 1000));
    }
    // Nothing was written: a fresh challenge replaces the old one and can still be answered, once.
    expect((await sdk.status()).state).toBe('chip_received');
    const fresh = await sdk.livenessChallenge();
    expect((await refused(sdk.uploadFace(old.challenge_id, await phone.captureFrames(fresh)))).error).toBe('liveness_challenge_mismatch');
    const outcome = await sdk.uploadFace(fresh.challenge_id, await phone.captureFrames(fresh));
    expect(outcome.state).toBe('completed');
    expect((await refused(sdk.uploadFace(fresh.challenge_id, await phone.captureFrames(fresh)))).status).toBe(409);
  }, 180_000);

  it('expires a session after its time; the broker page then returns an error to the merchant', async () => {
    const { client: sdk, qrToken, browser, page } = await newSession();
    await sdk.open(qrToken);
    const clock = t.app.get(Clock);
    clock.advance(verifierConfig(t.config).sessionTtlSeconds * 1000 + 1000);
    try {
      expect((await refused(sdk.status())).status).toBe(410);
      const status = await (await fetch(`${t.baseUrl}${/data-status-url="([^"]+)"/.exec(page.html)![1]}`)).json();
      expect(status).toEqual({ state: 'expired', step: 'stopped', done: true });
      const done = await browser.follow(await browser.submit(page, 'action', 'continue'));
      expect(new URL(done.location!).searchParams.get('error')).toBe('access_denied');
    } finally {
      clock.advance(-(verifierConfig(t.config).sessionTtlSeconds * 1000 + 1000));
    }
  });

  it('survives a reload of the broker page: the same QR before the phone opens it (a code being scanned stays good), the same session after', async () => {
    const { client: sdk, qrToken, browser, page } = await newSession();
    const reloaded = await browser.get(page.url);
    const newLink = /<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(reloaded.html)![1].replace(/&amp;/g, '&');
    expect(VerifierClient.fromLink(newLink).qrToken).toBe(qrToken);
    await sdk.open(qrToken);
    // Single use: once opened, the code opens nothing more.
    expect((await refused(new VerifierClient(`${t.baseUrl}/app/v1`).open(qrToken))).status).toBe(409);
    const whileWorking = await browser.get(page.url);
    expect(whileWorking.html).not.toContain('data-action="open-app"');
    expect(whileWorking.html).toContain('Your phone is working on it');
    expect(await sdk.cancel()).toMatchObject({ state: 'cancelled' });
    const done = await browser.follow(await browser.submit(whileWorking, 'action', 'continue'));
    expect(new URL(done.location!).searchParams.get('error')).toBe('access_denied');
  });

  it('lets the user cancel in the app; the merchant gets access_denied', async () => {
    const { client: sdk, qrToken, browser, page } = await newSession();
    await sdk.open(qrToken);
    expect((await sdk.cancel()).state).toBe('cancelled');
    const done = await browser.follow(await browser.submit(page, 'action', 'continue'));
    expect(new URL(done.location!).searchParams.get('error')).toBe('access_denied');
  });
});
