/**
 * Resident memory of the face step under oversized uploads. The service runs in this process, as in the e2e
 * tests (its face worker threads count in this process's RSS); an ordinary verification and one with frames at
 * the analysis size (1024x768) warm the models and the worker threads' WebAssembly heaps up, then BENCH_UPLOADS
 * (20) face uploads cycle through: 16 MP PNG frames (4608x3456), 12 MP JPEG frames (4000x3000), a session whose
 * DG2 photo is a 12 MP JPEG, and kilobyte JPEGs whose header declares 4000x4000.
 * BENCH_OVERSIZED (9) frames of each upload are the oversized image, the others the phone's own frames. Prints
 * the answer and RSS after each upload, then RSS after a main-thread GC and BENCH_IDLE_MS (10000) of idle, and
 * the peak. Needs a PostgreSQL server (DATABASE_URL, as the tests) or runs on the embedded database.
 *
 *   npm run bench:face-memory   (node --expose-gc with SWC, which emits the decorator metadata Nest needs)
 */
import { readFileSync } from 'node:fs';
import type * as client from 'openid-client';
import { VerifierApiError, type FaceFrame } from '@identity-broker/verifier-sdk';
import { adminClient } from '../test/support/admin-client.js';
import { discover } from '../test/support/oidc-flow.js';
import { jpegDeclaring, upscaledJpeg, upscaledPng } from '../test/support/oversized-images.js';
import { startTestApp } from '../test/support/test-app.js';
import { face, REDIRECT_URI, SHELDON, sessionAtFaceStep, specimenDocumentDir } from '../test/support/verifier-flow.js';

const uploads = Number(process.env.BENCH_UPLOADS ?? 20);
const oversized = Number(process.env.BENCH_OVERSIZED ?? 9);
const idleMs = Number(process.env.BENCH_IDLE_MS ?? 10_000);
const gc = (globalThis as { gc?: () => void }).gc;
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const rss = () => process.memoryUsage().rss;
const peakRss = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) * 1024;
const settle = async (ms: number) => {
  gc?.();
  await new Promise((r) => setTimeout(r, ms));
  gc?.();
};

const png16 = await upscaledPng(SHELDON.center);
const jpeg12 = await upscaledJpeg(SHELDON.center);
const declaring = jpegDeclaring(4000, 4000);
const dg2Photo = await upscaledJpeg(face('sheldon-document.jpg'));
const frame1024 = await upscaledJpeg(SHELDON.center, 1024, 768);
console.log(
  `images: PNG 4608x3456 ${png16.length} bytes, JPEG 4000x3000 ${jpeg12.length} bytes, JPEG declaring 4000x4000 ${declaring.length} bytes, DG2 JPEG 4000x3000 ${dg2Photo.length} bytes`,
);

const t = await startTestApp();
try {
  const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({
    name: 'Face memory',
    redirect_uris: [REDIRECT_URI],
    eid_schemes: ['document-verifier'],
  });
  const merchant: client.Configuration = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
  const documentDir = await specimenDocumentDir(t.baseUrl);
  const bigPhotoDir = await specimenDocumentDir(t.baseUrl, 'nor-adult', 'active-authentication', dg2Photo);

  const upload = async (dir: string, image?: Uint8Array): Promise<string> => {
    const { sdk, phone } = await sessionAtFaceStep(t.baseUrl, merchant, dir);
    const challenge = await sdk.livenessChallenge();
    const frames: FaceFrame[] = (await phone.captureFrames(challenge)).map((f, i) => (image && i < oversized ? { ...f, image } : f));
    try {
      const outcome = await sdk.uploadFace(challenge.challenge_id, frames);
      return `${outcome.state} ${outcome.authentication_result}`;
    } catch (e) {
      if (e instanceof VerifierApiError) return `${e.status} ${e.error}`;
      throw e;
    }
  };

  // Warm: the models loaded and the worker threads' WebAssembly heaps grown by frames at the analysis size (1024x768),
  // which any phone frame reaches and which never shrink (libs/face/README.md).
  console.log(`warm-up: a verification ${await upload(documentDir)}, one with 1024x768 frames ${await upload(documentDir, frame1024)}`);
  await settle(2000);
  const before = rss();
  console.log(`before: ${mib(before)} MiB RSS`);
  const kinds: [string, string, Uint8Array | undefined][] = [
    ['16 MP PNG frames', documentDir, png16],
    ['12 MP JPEG frames', documentDir, jpeg12],
    ['12 MP JPEG DG2 photo', bigPhotoDir, undefined],
    ['JPEG declaring 4000x4000', documentDir, declaring],
  ];
  for (let i = 0; i < uploads; i++) {
    const [kind, dir, image] = kinds[i % kinds.length];
    const start = performance.now();
    const answer = await upload(dir, image);
    console.log(
      `${String(i + 1).padStart(2)} ${kind.padEnd(26)} ${answer.padEnd(32)} ${((performance.now() - start) / 1000).toFixed(1).padStart(5)} s  ${mib(rss())} MiB`,
    );
  }
  await settle(idleMs);
  const after = rss();
  console.log(
    `after ${gc ? 'a main-thread GC and ' : ''}${idleMs / 1000} s idle: ${mib(after)} MiB RSS (${after >= before ? '+' : ''}${mib(after - before)} MiB), peak ${mib(peakRss())} MiB`,
  );
} finally {
  await t.close();
}
