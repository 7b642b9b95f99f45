import * as client from 'openid-client';
import { decodeImage, type RgbImage } from '@identity-broker/face';
import { runVerification, VerifierApiError, VerifierClient, type CaptureRetry, type FaceFrame } from '@identity-broker/verifier-sdk';
import { specimenPhone } from '../../scripts/test-app/specimen-phone.js';
import { blur, compose, encodeJpeg } from '../../scripts/test-app/synthesise-frames.js';
import { CAPTURE_RETRY_MESSAGES, type CaptureRetryReason } from '../../src/i18n/capture-retry-messages.js';
import { FaceVerificationService } from '../../src/schemes/document-verifier/verification/face-verification.service.js';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover } from '../support/oidc-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { PENNY, REDIRECT_URI, SHELDON, specimenDocumentDir } from '../support/verifier-flow.js';

/**
 * Capture quality is judged before matching: an unusable selfie is a retry (422 capture_retry with its reason, the
 * session stays at the face step), counted as a failure to acquire, never a fail. A DG2 photo without a face is a fail.
 */
describe('verifier face capture quality', () => {
  let t: TestApp;
  let config: client.Configuration;
  let documentDir: string;

  const link = async () => {
    const browser = new TestBrowser(t.baseUrl);
    const page = await browser.follow(await browser.get((await authorizationRequest(config)).url.toString()));
    return /<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(page.html)![1].replace(/&amp;/g, '&');
  };

  beforeAll(async () => {
    t = await startTestApp();
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Quality', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    documentDir = await specimenDocumentDir(t.baseUrl);
  });
  afterAll(() => t?.close(), 180_000);

  it('asks again for a blurred, dark, small selfie or one with two faces; the session stays at the face step and then passes', async () => {
    const { client: sdk, qrToken } = VerifierClient.fromLink(await link());
    await sdk.open(qrToken);
    const phone = specimenPhone({ documentDir, selfie: SHELDON.center, left: SHELDON.left, right: SHELDON.right });
    await sdk.uploadChip(await phone.readChip(await sdk.activeAuthChallenge()));
    const centre = await decodeImage(SHELDON.center);
    const padded = (im: RgbImage) => compose([im], 1, { width: 260, height: 260 });
    const bad: [string, RgbImage][] = [
      ['FACE_TOO_BLURRED', blur(compose([centre], 2, { width: 500, height: 500 }), 5)],
      ['FACE_TOO_DARK', { ...centre, data: centre.data.map((v) => Math.round(v * 0.25)) }],
      ['FACE_TOO_SMALL', compose([centre], 0.5, { width: 400, height: 400 })],
      ['MULTIPLE_FACES', compose([padded(centre), padded(await decodeImage(PENNY.center))])],
    ];
    const fta = t.app.get(FaceVerificationService).failuresToAcquire;
    // The phone's language picks the words for the user (fr-CA has no locale of its own: French by language).
    sdk.acceptLanguage = 'fr-CA, de;q=0.8';
    for (const [reason, image] of bad) {
      const before = fta.get(reason as never) ?? 0;
      const c = await sdk.livenessChallenge();
      const frames: FaceFrame[] = await phone.captureFrames(c);
      const e = await sdk
        .uploadFace(c.challenge_id, [{ ...frames[0], image: encodeJpeg(image) }, ...frames.slice(1)])
        .catch((x: unknown) => x as VerifierApiError);
      expect([reason, e instanceof VerifierApiError && [e.status, e.error, e.retryReason, e.retryMessage]]).toEqual([
        reason,
        [422, 'capture_retry', reason, CAPTURE_RETRY_MESSAGES.fr_FR[reason as CaptureRetryReason]],
      ]);
      expect(fta.get(reason as never)).toBe(before + 1);
      expect((await sdk.status()).state).toBe('chip_received');
    }
    const c = await sdk.livenessChallenge();
    expect(await sdk.uploadFace(c.challenge_id, await phone.captureFrames(c))).toMatchObject({ state: 'completed', authentication_result: 'pass' });
  }, 180_000);

  it('the SDK captures again on a retry, telling the phone why', async () => {
    const { client: sdk, qrToken } = VerifierClient.fromLink(await link());
    const genuine = specimenPhone({ documentDir, selfie: SHELDON.center, left: SHELDON.left, right: SHELDON.right });
    sdk.acceptLanguage = 'nb-NO,nb;q=0.9,en;q=0.5';
    const reasons: (CaptureRetry | undefined)[] = [];
    const outcome = await runVerification(sdk, qrToken, {
      ...genuine,
      async captureFrames(challenge, retry) {
        reasons.push(retry);
        const frames = await genuine.captureFrames(challenge);
        return reasons.length === 1 ? [{ ...frames[0], image: SHELDON.left }, ...frames.slice(1)] : frames;
      },
    });
    expect(reasons).toEqual([undefined, { reason: 'FACE_OFF_POSE', message: 'Se rett inn i kameraet i starten, og prøv igjen.' }]);
    expect(outcome).toMatchObject({ state: 'completed', authentication_result: 'pass' });
  }, 300_000);

  it('fails a document whose DG2 photo has no usable face (STATUS_BAD_NOFACE): the document cannot change', async () => {
    const grey = encodeJpeg({ width: 120, height: 160, data: new Uint8Array(120 * 160 * 3).fill(128) });
    const dir = await specimenDocumentDir(t.baseUrl, 'nor-adult', 'active-authentication', grey);
    const { client: sdk, qrToken } = VerifierClient.fromLink(await link());
    const outcome = await runVerification(sdk, qrToken, specimenPhone({ documentDir: dir, selfie: SHELDON.center, left: SHELDON.left, right: SHELDON.right }));
    expect(outcome).toMatchObject({ state: 'completed', authentication_result: 'fail' });
    expect(outcome.result_explanation).toContain('STATUS_BAD_NOFACE');
  }, 300_000);
});
