import { jest } from '@jest/globals';
import * as client from 'openid-client';
import type { WorkerFaceEngine } from '@identity-broker/face';
import type { FaceFrame, LivenessChallenge, VerifierClient } from '@identity-broker/verifier-sdk';
import { adminClient } from '../support/admin-client.js';
import { flatJpeg, withFrameHeader, withIhdrBytes } from '../support/crafted-headers.js';
import { discover } from '../support/oidc-flow.js';
import { FACE_ENGINE } from '../../src/schemes/document-verifier/verification/face-engine.provider.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { REDIRECT_URI, refused, SHELDON, sessionAtFaceStep, specimenDocumentDir } from '../support/verifier-flow.js';

/** Waits until this process (the service, its face worker threads, the test) spends under 2% of a core: the chip step's background work is done. */
async function quiet(): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { user, system } = process.cpuUsage(before);
    if (user + system < 10_000) return;
  }
  throw new Error('the service did not go quiet');
}

/** CPU of the whole process (the service, its face worker threads and this test's client are in it) for each of `times` runs of `work`. */
async function cpuCost(times: number, work: () => Promise<unknown>): Promise<number[]> {
  const cpuMs: number[] = [];
  for (let i = 0; i < times; i++) {
    const cpu = process.cpuUsage();
    await work();
    const { user, system } = process.cpuUsage(cpu);
    cpuMs.push((user + system) / 1000);
  }
  return cpuMs;
}

/**
 * Every frame is judged by its header before any frame is decoded: a frame its decoder would refuse (process,
 * depth, components, a corrupt header) is refused with 422 before the 12 MP frame beside it is decoded. The frames
 * are decoded side by side in the worker pool; judged only there, the 12 MP frame cost 0.4-0.8 s of CPU first.
 */
describe('verifier face upload: every frame header judged before any frame is decoded', () => {
  let t: TestApp;
  let sdk: VerifierClient;
  let challenge: LivenessChallenge;
  let frames: FaceFrame[];
  let engine: WorkerFaceEngine;
  // A 12 MP phone frame facing a wall (4000x3000, baseline, jpeg-js): within the JPEG ceiling, so only decoding it tells it has no face.
  const twelveMegapixels = flatJpeg(4000, 3000);

  beforeAll(async () => {
    // No idle recycle of the face threads (a fresh thread loads its models: seconds of CPU) while CPU is measured.
    t = await startTestApp({ env: { FACE_WORKER_IDLE_RECYCLE_SECONDS: '0' } });
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({
      name: 'Face headers',
      redirect_uris: [REDIRECT_URI],
      eid_schemes: ['document-verifier'],
    });
    const config: client.Configuration = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    const session = await sessionAtFaceStep(t.baseUrl, config, await specimenDocumentDir(t.baseUrl));
    sdk = session.sdk;
    challenge = await sdk.livenessChallenge();
    frames = await session.phone.captureFrames(challenge);
    engine = t.app.get<symbol, WorkerFaceEngine>(FACE_ENGINE, { strict: false });
  }, 180_000);
  afterAll(() => t?.close(), 180_000);

  const burst = () => frames[frames.length - 1].image; // a phone's JPEG burst frame (jpeg-js, baseline 4:4:4)
  const cases: [string, () => Uint8Array, RegExp][] = [
    ['a 12-bit JPEG', () => withFrameHeader(burst(), { sof: 0xc1, precision: 12 }), /12-bit JPEG/],
    [
      'a CMYK JPEG',
      () =>
        withFrameHeader(burst(), {
          components: [
            [1, 0x11, 0],
            [2, 0x11, 1],
            [3, 0x11, 1],
            [4, 0x11, 0],
          ],
        }),
      /4 components/,
    ],
    ['an arithmetic-coded JPEG', () => withFrameHeader(burst(), { sof: 0xc9 }), /arithmetic/],
    ['a PNG whose IHDR fails its CRC', () => withIhdrBytes(SHELDON.center, 7, [SHELDON.center[23] ^ 1], true), /CRC/],
  ];

  it.each(cases)(
    'refuses %s in the last frame before decoding the 12 MP first frame: 422 naming the frame, under 100 ms of CPU',
    async (_name, faulty, reason) => {
      const upload = frames.map((f, i) => ({ ...f, image: i === 0 ? twelveMegapixels : i === frames.length - 1 ? faulty() : f.image, capturedAt: new Date() }));
      expect(upload.reduce((sum, f) => sum + f.image.length, 0)).toBeLessThan(1_000_000);
      await quiet();
      let answer: Awaited<ReturnType<typeof refused>> | undefined;
      // Watched, not replaced: the pool's decoder is what a frame judged only by it would have reached.
      const decode = jest.spyOn(engine, 'prepareFrame');
      try {
        // Three times, the same refusal each time (nothing is spent): the least CPU of the three is the request's own,
        // without a garbage collection or a timer of this shared process that happened to fall into one of them.
        const cpuMs = await cpuCost(3, async () => (answer = await refused(sdk.uploadFace(challenge.challenge_id, upload))));
        expect([answer!.status, answer!.error]).toEqual([422, 'unusable_face_data']);
        // No frame reached the decoder, the 12 MP one included (its decode alone is 0.4-0.8 s of CPU).
        expect(decode).not.toHaveBeenCalled();
        expect(Math.min(...cpuMs)).toBeLessThan(100);
      } finally {
        decode.mockRestore();
      }
      // The existing refusal: which frame (1-based, in upload order) and why, from its header; no image data, nothing about the person.
      expect(answer!.description).toMatch(new RegExp(`^frame ${frames.length}: `));
      expect(answer!.description).toMatch(reason);
      // Refused by its header, nothing spent: the session still waits for this challenge's answer.
      expect((await sdk.status()).state).toBe('chip_received');
    },
    120_000,
  );
});
