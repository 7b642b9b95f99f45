import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type * as client from 'openid-client';
import { upscaledJpeg } from '../support/oversized-images.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { SHELDON, sessionAtFaceStep, verifierMerchant } from '../support/verifier-flow.js';

const MiB = 1024 ** 2;

/**
 * The service's whole memory over a run of verifications like `npm run bench:verify` (every fifth with its selfie
 * as a 12 MP JPEG, which the service decodes to 1000x750 and detects padded): its peak (VmHWM) and its resident
 * memory afterwards (VmRSS), read from /proc/<pid>/status of the service's own process, worker threads included.
 *
 * NOT MET YET, hence `it.failing` (jest fails it the day it passes, to be turned into `it`): this service process (run
 * from the TypeScript sources, its face threads through tsx) peaked at 1,129 MiB and held 1,009 MiB after the run with
 * both detectors' passes layer by layer. The built service under `npm run bench:verify -- --sessions 100` is lower
 * (peak 738-769 MiB, 708-736 right after: docs/benchmarks.md, "Face worker memory").
 */
describe('verifier face memory over a run with 12 MP selfies', () => {
  let t: ServiceProcess;
  let merchant: client.Configuration;
  let documentDir: string;
  let selfie12: Uint8Array;

  beforeAll(async () => {
    // Encoded first: it blocks this event loop for seconds, which must not fall between two requests of a connection.
    selfie12 = await upscaledJpeg(SHELDON.center);
    t = await startServiceProcess({ collectableGarbage: true });
    ({ merchant, documentDir } = await verifierMerchant(t, 'Face peak memory'));
  }, 300_000);
  afterAll(() => t?.stop(), 180_000);

  const status = (field: 'VmRSS' | 'VmHWM') =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${t.child.pid}/status`, 'utf8'))![1]) * 1024;

  it('passes 20 verifications, 4 of them with a 12 MP selfie', async () => {
    const outcomes: string[] = [];
    for (let i = 1; i <= 20; i++) {
      const { sdk, phone } = await sessionAtFaceStep(t.baseUrl, merchant, documentDir);
      const challenge = await sdk.livenessChallenge();
      const frames = (await phone.captureFrames(challenge)).map((f) => (i % 5 === 0 && f.step === 0 ? { ...f, image: selfie12 } : f));
      const outcome = await sdk.uploadFace(challenge.challenge_id, frames);
      outcomes.push(`${outcome.state} ${outcome.authentication_result}`);
    }
    expect(outcomes).toEqual(Array.from({ length: 20 }, () => 'completed pass'));
  }, 900_000);

  // After the verifications above (they run first, and their outcomes are asserted there, so that this bound is not
  // "met" by sessions that failed early).
  it.failing('peaked under 900 MiB and stays under 700 MiB resident after them', async () => {
    // The main thread's garbage collected and the face threads idle (well within FACE_WORKER_IDLE_RECYCLE_SECONDS).
    await t.collectGarbage();
    await sleep(2000);
    expect(status('VmHWM') / MiB).toBeLessThan(900);
    expect(status('VmRSS') / MiB).toBeLessThan(700);
  });
});
