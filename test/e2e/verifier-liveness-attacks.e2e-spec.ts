import * as client from 'openid-client';
import { decodeImage } from '@identity-broker/face';
import { VerifierClient, type FaceFrame, type LivenessChallenge, type Outcome } from '@identity-broker/verifier-sdk';
import { mirror, specimenPhone } from '../../scripts/test-app/specimen-phone.js';
import { crossFade, encodeJpeg, rotate } from '../../scripts/test-app/synthesise-frames.js';
import { Clock } from '../../src/common/clock.js';
import { VerificationRecordsService } from '../../src/schemes/document-verifier/records/verification-records.service.js';
import { adminClient } from '../support/admin-client.js';
import { discover } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { face, HOWARD, PENNY, REDIRECT_URI, SHELDON, sessionAtFaceStep, specimenDocumentDir, type Person, refused } from '../support/verifier-flow.js';
import { verifierConfig } from '../../src/schemes/document-verifier/config/verifier-config.js';

/**
 * Attacks on the active liveness challenge, against the running app. (a) and (b) passed the previous liveness
 * (three head poses, one frame each): still photos of the holder, and a photo with its mirror image as the other
 * turn. The others were refused before too; here they are held to the burst protocol and its binding.
 */
describe('liveness attacks (active challenge with bursts)', () => {
  let t: TestApp;
  let config: client.Configuration;
  let sheldonDoc: string;
  let howardDoc: string;

  const atFaceStep = async (documentDir = sheldonDoc) => {
    const { sdk, phone, chip } = await sessionAtFaceStep(t.baseUrl, config, documentDir);
    expect(chip).toMatchObject({ next: 'face' });
    return { sdk, phone };
  };
  /** A challenge that asks for `needed` (new challenges replace the last until one does). */
  const challengeWith = async (sdk: VerifierClient, needed: string[]): Promise<LivenessChallenge> => {
    for (let i = 0; i < 200; i++) {
      const c = await sdk.livenessChallenge();
      if (needed.every((d) => c.steps.includes(d as never))) return c;
    }
    throw new Error(`no challenge with ${needed.join(', ')}`);
  };
  /** The frames restamped as captured now, in order (an attacker controls the timestamps). */
  const now = (list: FaceFrame[]): FaceFrame[] => list.map((f) => ({ ...f, capturedAt: new Date() }));
  /** Frames from images per step (index = step), captured now. */
  const frames = (steps: Uint8Array[][]): FaceFrame[] => steps.flatMap((images, step) => images.map((image) => ({ step, image, capturedAt: new Date() })));
  const phoneOf = (person: Person) => specimenPhone({ documentDir: sheldonDoc, selfie: person.center, left: person.left, right: person.right });
  /** Failed on liveness, for the reason `why` (read from the sealed record of the session completed last). */
  const failedLiveness = async (o: Outcome, why: RegExp) => {
    expect(o).toMatchObject({ state: 'completed', authentication_result: 'fail' });
    expect(o.result_explanation).toContain('STATUS_BAD_LIVENESS');
    const [row] = await t.dataSource.query("SELECT record_id FROM verification_sessions WHERE state = 'completed' ORDER BY updated_at DESC LIMIT 1");
    const record = await t.app.get(VerificationRecordsService).get(row.record_id);
    expect(record?.failures.join('\n')).toMatch(why);
  };

  beforeAll(async () => {
    t = await startTestApp();
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Attacks', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    sheldonDoc = await specimenDocumentDir(t.baseUrl);
    howardDoc = await specimenDocumentDir(t.baseUrl, 'nor-adult', 'active-authentication', face('howard-document.jpg'));
  });
  afterAll(() => t?.close(), 180_000);

  it('passes the genuine holder: real turns, synthesised bursts, every frame bound to the challenge', async () => {
    const { sdk, phone } = await atFaceStep();
    const c = await sdk.livenessChallenge();
    expect(c.steps[0]).toBe('center');
    expect(c.steps).toHaveLength(5);
    expect(c.burst_frames).toEqual({ min: 2, max: 4 });
    const outcome = await sdk.uploadFace(c.challenge_id, await phone.captureFrames(c));
    expect(outcome).toMatchObject({ state: 'completed', authentication_result: 'pass', result_explanation: [] });
    expect(outcome.facematch_level).toBeGreaterThanOrEqual(7);
  }, 240_000);

  it('(a) refuses still photos: each burst one still picture repeated, or one picture for every step', async () => {
    const { sdk } = await atFaceStep();
    const c = await sdk.livenessChallenge();
    const centre = await decodeImage(SHELDON.center);
    const still: Record<string, Uint8Array> = {
      left: SHELDON.left,
      right: SHELDON.right,
      tilt_left: encodeJpeg(rotate(centre, -20)),
      tilt_right: encodeJpeg(rotate(centre, 20)),
    };
    await failedLiveness(
      await sdk.uploadFace(c.challenge_id, frames(c.steps.map((s, i) => (i === 0 ? [SHELDON.center] : [still[s], still[s]])))),
      /still picture: frame 3 \(step 1\) repeats frame 2/,
    );
    const { sdk: other } = await atFaceStep();
    const c2 = await other.livenessChallenge();
    await failedLiveness(
      await other.uploadFace(c2.challenge_id, frames(c2.steps.map((_, i) => (i === 0 ? [SHELDON.center] : [SHELDON.center, SHELDON.center])))),
      /frame 2 \(step 1\) repeats frame 1/,
    );
  }, 240_000);

  it('(b) refuses a photo and its mirror image as the other turn', async () => {
    const { sdk } = await atFaceStep(howardDoc);
    const c = await challengeWith(sdk, ['left', 'right']);
    const phone = specimenPhone({ documentDir: howardDoc, selfie: HOWARD.center, right: HOWARD.right, left: await mirror(HOWARD.right) });
    const outcome = await sdk.uploadFace(c.challenge_id, await phone.captureFrames(c));
    await failedLiveness(outcome, /is the mirror image of/);
  }, 240_000);

  it('(c) refuses frames of the right person in the wrong order', async () => {
    const { sdk, phone } = await atFaceStep();
    const c = await sdk.livenessChallenge();
    // The holder's genuine bursts, each moved one step on: every step shows another movement than the one asked.
    const shifted = { ...c, steps: [c.steps[0], ...c.steps.slice(2), c.steps[1]] };
    await failedLiveness(await sdk.uploadFace(c.challenge_id, await phone.captureFrames(shifted)), /step 1 \(\w+\): /);
  }, 240_000);

  it("(d) refuses replays: another session's challenge, frames bound to another challenge, a spent challenge, an earlier session's frames", async () => {
    const one = await atFaceStep();
    const two = await atFaceStep();
    const c1 = await one.sdk.livenessChallenge();
    const c2 = await two.sdk.livenessChallenge();
    const answer1 = await one.phone.captureFrames(c1);
    const foreign = await refused(two.sdk.uploadFace(c1.challenge_id, answer1));
    expect([foreign.status, foreign.error]).toEqual([409, 'liveness_challenge_mismatch']);
    const mixed = (await two.phone.captureFrames(c2)).map((f, i) => (i === 3 ? { ...f, challengeId: c1.challenge_id } : f));
    expect((await refused(two.sdk.uploadFace(c2.challenge_id, mixed))).error).toBe('liveness_challenge_mismatch');
    expect(await one.sdk.uploadFace(c1.challenge_id, answer1)).toMatchObject({ authentication_result: 'pass' });
    // The first session's accepted frames, relabelled for the second session's (different) challenge.
    let c3 = await two.sdk.livenessChallenge();
    while (c3.steps.join() === c1.steps.join()) c3 = await two.sdk.livenessChallenge();
    await failedLiveness(await two.sdk.uploadFace(c3.challenge_id, now(answer1)), /step \d \(\w+\): /);
  }, 300_000);

  it('(d) spends a challenge on the first upload that reaches face work, even a capture retry', async () => {
    const { sdk, phone } = await atFaceStep();
    const c = await sdk.livenessChallenge();
    const good = await phone.captureFrames(c);
    // A centre frame with the head turned: unusable as the selfie, so a capture retry.
    const retry = await refused(sdk.uploadFace(c.challenge_id, [{ ...good[0], image: SHELDON.left }, ...good.slice(1)]));
    expect([retry.status, retry.error, retry.retryReason]).toEqual([422, 'capture_retry', 'FACE_OFF_POSE']);
    const again = await refused(sdk.uploadFace(c.challenge_id, good));
    expect([again.status, again.error]).toEqual([409, 'liveness_challenge_mismatch']);
    expect((await sdk.status()).state).toBe('chip_received');
  }, 240_000);

  it('(e) refuses frames of two different people (one burst by another person)', async () => {
    const { sdk } = await atFaceStep();
    const c = await challengeWith(sdk, ['left']);
    const genuine = await phoneOf(SHELDON).captureFrames(c);
    const impostor = await phoneOf(PENNY).captureFrames(c);
    const step = c.steps.indexOf('left');
    const swapped = [...genuine.filter((f) => f.step < step), ...impostor.filter((f) => f.step === step), ...genuine.filter((f) => f.step > step)];
    await failedLiveness(await sdk.uploadFace(c.challenge_id, now(swapped)), /another face: /);
  }, 240_000);

  it('(f) refuses frames after the window, or captured before the challenge (410), and frames out of capture order', async () => {
    const { sdk, phone } = await atFaceStep();
    const c = await sdk.livenessChallenge();
    const answer = await phone.captureFrames(c);
    const early = await refused(
      sdk.uploadFace(
        c.challenge_id,
        answer.map((f) => ({ ...f, capturedAt: new Date(Date.now() - 10 * 60_000) })),
      ),
    );
    expect([early.status, early.error]).toEqual([410, 'liveness_expired']);
    const reversed = answer.map((f, i) => ({ ...f, capturedAt: new Date(Date.now() - i * 100) }));
    expect((await refused(sdk.uploadFace(c.challenge_id, reversed))).status).toBe(400);
    const clock = t.app.get(Clock);
    clock.advance(verifierConfig(t.config).livenessWindowSeconds * 1000 + 1000);
    try {
      const late = await refused(sdk.uploadFace(c.challenge_id, answer));
      expect([late.status, late.error]).toEqual([410, 'liveness_expired']);
    } finally {
      clock.advance(-(verifierConfig(t.config).livenessWindowSeconds * 1000 + 1000));
    }
    expect((await sdk.status()).state).toBe('chip_received');
  }, 240_000);

  it('refuses malformed answers unread: a missing burst, a burst too long, two centre frames', async () => {
    const { sdk, phone } = await atFaceStep();
    const c = await sdk.livenessChallenge();
    const answer = await phone.captureFrames(c);
    const fade = encodeJpeg(crossFade(await decodeImage(SHELDON.center), await decodeImage(SHELDON.left), 0.3));
    for (const bad of [
      answer.filter((f) => f.step !== 2),
      [
        ...answer.slice(0, 1),
        ...answer.filter((f) => f.step === 1),
        ...[1, 2, 3].map(() => ({ ...answer[1], image: fade })),
        ...answer.filter((f) => f.step > 1),
      ],
      [answer[0], ...answer],
    ]) {
      expect((await refused(sdk.uploadFace(c.challenge_id, bad))).status).toBe(400);
    }
    // Refused unread: the challenge is still open and answers.
    expect(await sdk.uploadFace(c.challenge_id, answer)).toMatchObject({ state: 'completed' });
  }, 240_000);
});
