import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FaceApiEngine } from '../../libs/face/src/face-api/face-api-engine.js';
import { decodeImage } from '../../libs/face/src/image/decode-image.js';
import { MAX_ANALYSIS_SIDE } from '../../libs/face/src/image/decode-limits.js';
import { downscaleToFit } from '../../libs/face/src/image/downscale-image.js';
import { measureFaceQuality } from '../../libs/face/src/quality/face-quality.js';
import { frameSignature } from '../../libs/face/src/quality/frame-signature.js';
import { WorkerFaceEngine } from '../../libs/face/src/worker/worker-face-engine.js';

const face = (name: string) => new Uint8Array(readFileSync(join(import.meta.dirname, '../fixtures/verifier-faces', name)));

describe('frame analysis for the verifier (one detection per frame, embeddings only when asked)', () => {
  const engine = new FaceApiEngine();
  beforeAll(() => engine.warmUp(), 120_000);

  it('detects a tight crop with one SSD pass: padded at once when the light detector sees it fill the frame, or when hinted', async () => {
    // 150x150 crops: the face fills the frame. The ladder alone would detect the image as is, find nothing, then pad it.
    const passes = jest.spyOn(engine as unknown as { run: (...args: unknown[]) => Promise<unknown> }, 'run');
    const plain = await engine.analyseFace(face('sheldon-center.png'), { descriptor: true });
    expect([plain.padding, passes.mock.calls.map((call) => call[1])]).toEqual([0.5, [0.5]]);
    passes.mockClear();
    const hinted = await engine.analyseFace(face('sheldon-center.png'), { descriptor: true, padding: plain.padding });
    expect([hinted.padding, passes.mock.calls.length]).toEqual([0.5, 1]);
    expect(hinted.detection.pose).toEqual(plain.detection.pose);
    expect(engine.similarity(hinted.embedding!, plain.embedding!)).toBeLessThan(1e-6);
    // A hint that finds nothing falls back to the usual order (blank image: no face at any padding).
    passes.mockClear();
    const blank = { width: 150, height: 150, data: new Uint8Array(150 * 150 * 3).fill(128) };
    await expect(engine.analyseFace(blank, { padding: 0.5 })).rejects.toMatchObject({ code: 'NO_FACE' });
    expect(passes.mock.calls.map((call) => call[1])).toEqual([0.5, 0, 1]);
    passes.mockRestore();
  }, 60_000);

  it('follows a burst frame with the fast detector, falling back to the accurate ladder when it finds nothing', async () => {
    const passes = jest.spyOn(engine as unknown as { run: (...args: unknown[]) => Promise<unknown> }, 'run');
    const turned = await engine.analyseFace(face('sheldon-left.png'), { descriptor: true, padding: 0.5, detector: 'fast' });
    expect(passes.mock.calls.map((call) => [call[1], call[2]])).toEqual([[0.5, 'fast']]);
    expect(turned.detection.pose.yaw).toBeGreaterThan(10); // the turn is still read from the 68 landmarks
    const accurate = await engine.analyseFace(face('sheldon-left.png'), { descriptor: true, padding: 0.5 });
    expect(engine.similarity(turned.embedding!, accurate.embedding!)).toBeLessThan(0.2); // one person, whichever detector
    passes.mockClear();
    const blank = { width: 150, height: 150, data: new Uint8Array(150 * 150 * 3).fill(128) };
    await expect(engine.analyseFace(blank, { padding: 0.5, detector: 'fast' })).rejects.toMatchObject({ code: 'NO_FACE' });
    expect(passes.mock.calls.map((call) => [call[1], call[2] ?? 'accurate'])).toEqual([[0.5, 'fast'], [0.5, 'accurate'], [0, 'accurate'], [1, 'accurate']]);
    passes.mockRestore();
  }, 60_000);

  it('scores presentation attacks unless told not to (a document photo is no live capture)', async () => {
    expect((await engine.analyseFace(face('sheldon-center.png'))).presentation).toBeDefined();
    expect((await engine.analyseFace(face('sheldon-center.png'), { presentation: false })).presentation).toBeUndefined();
  }, 60_000);

  it('computes no descriptor unless asked', async () => {
    const analysis = await engine.analyseFace(face('howard-center.png'));
    expect(analysis.embedding).toBeUndefined();
    expect(analysis.ms.embed).toBe(0);
    expect(analysis.detection.landmarks).toHaveLength(68);
  }, 60_000);
});

describe('face worker pool', () => {
  const pool = new WorkerFaceEngine({ kind: 'face-api' }, { workers: 2 });
  afterAll(() => pool.terminate());

  it('decodes, scales and signs frames in a worker exactly as the main thread would', async () => {
    const bytes = face('penny-center.png');
    const prepared = await pool.prepareFrame(bytes);
    const local = downscaleToFit(await decodeImage(bytes), MAX_ANALYSIS_SIDE).image;
    expect([prepared.image.width, prepared.image.height]).toEqual([local.width, local.height]);
    expect(Buffer.from(prepared.image.data).equals(Buffer.from(local.data))).toBe(true);
    expect([...prepared.signature]).toEqual([...frameSignature(local)]);
    await expect(pool.prepareFrame(new Uint8Array([1, 2, 3]))).rejects.toMatchObject({ code: 'BAD_IMAGE' });
  }, 60_000);

  it('runs frames given at once on different threads, and measures quality on the pixels it detected in', async () => {
    const images = await Promise.all([face('howard-center.png'), face('howard-right.png')].map((b) => pool.prepareFrame(b)));
    const local = await decodeImage(face('howard-center.png'));
    const [centre, right] = await Promise.all([pool.analyseFrame(images[0].image, { descriptor: true, quality: true }), pool.analyseFrame(images[1].image, { descriptor: true })]);
    expect(pool.startedThreads).toBe(2);
    expect(centre.quality).toEqual(measureFaceQuality(local, centre.detection.box));
    expect(right.quality).toBeUndefined();
    expect(right.detection.pose.yaw).toBeLessThan(-12);
    expect(centre.embedding).toBeInstanceOf(Float32Array);
  }, 120_000);
});
