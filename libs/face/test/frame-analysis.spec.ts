import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  FaceApiEngine,
  decodeImage,
  MAX_ANALYSIS_SIDE,
  downscaleToFit,
  measureFaceQuality,
  padImage,
  frameSignature,
  WorkerFaceEngine,
} from '@identity-broker/face';
import { encodeJpeg, rotate } from '../../../scripts/test-app/synthesise-frames.js';

const face = (name: string) => new Uint8Array(readFileSync(join(import.meta.dirname, '../../../test/fixtures/verifier-faces', name)));

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
    expect(passes.mock.calls.map((call) => [call[1], call[2] ?? 'accurate', call[3]])).toEqual([
      [0.5, 'fast', 320],
      [0.5, 'fast', 224],
      [0.5, 'accurate', undefined],
      [0, 'accurate', undefined],
      [1, 'accurate', undefined],
    ]);
    passes.mockRestore();
  }, 60_000);

  it('finds a head tilted 20° with the fast detector at its second input size, without an SSD pass', async () => {
    const passes = jest.spyOn(engine as unknown as { run: (...args: unknown[]) => Promise<unknown> }, 'run');
    const tilted = encodeJpeg(rotate(await decodeImage(face('sheldon-center.png')), -20));
    const analysis = await engine.analyseFace(tilted, { descriptor: true, padding: 0.5, detector: 'fast', mirror: false });
    expect(passes.mock.calls.map((call) => call[2])).toEqual(expect.arrayContaining(['fast']));
    expect(passes.mock.calls.map((call) => call[2] ?? 'accurate')).not.toContain('accurate');
    expect(Math.abs(analysis.detection.pose.roll)).toBeGreaterThan(10);
    passes.mockRestore();
  }, 60_000);

  it('computes a plain descriptor of unit length on request, close to the mirror-averaged one of the same face', async () => {
    const averaged = await engine.analyseFace(face('sheldon-left.png'), { descriptor: true, padding: 0.5 });
    const plain = await engine.analyseFace(face('sheldon-left.png'), { descriptor: true, padding: 0.5, mirror: false });
    expect(Math.hypot(...plain.embedding!)).toBeCloseTo(1, 5);
    expect(engine.similarity(plain.embedding!, averaged.embedding!)).toBeGreaterThan(0.01); // not the averaged one
    expect(engine.similarity(plain.embedding!, averaged.embedding!)).toBeLessThan(0.2);
    const centre = await engine.analyseFace(face('sheldon-center.png'), { descriptor: true });
    const other = await engine.analyseFace(face('howard-center.png'), { descriptor: true });
    // Same person across frames stays well within the lowest level; another person stays far outside it.
    expect(engine.similarity(plain.embedding!, centre.embedding!)).toBeLessThan(0.3);
    expect(engine.similarity(plain.embedding!, other.embedding!)).toBeGreaterThan(0.5);
  }, 60_000);

  it('advises the padding for a capture from its centre frame: a tight crop padded, a framed face not', async () => {
    expect(await engine.framing(face('sheldon-center.png'))).toBe(0.5);
    const framed = await decodeImage(face('sheldon-center.png'));
    expect(await engine.framing(padImage(framed, 1).image)).toBe(0);
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
    expect(prepared.padding).toBeUndefined();
    expect((await pool.prepareFrame(face('sheldon-center.png'), { framing: true })).padding).toBe(0.5);
  }, 60_000);

  it('runs frames given at once on different threads, and measures quality on the pixels it detected in', async () => {
    const images = await Promise.all([face('howard-center.png'), face('howard-right.png')].map((b) => pool.prepareFrame(b)));
    const local = await decodeImage(face('howard-center.png'));
    const [centre, right] = await Promise.all([
      pool.analyseFrame(images[0].image, { descriptor: true, quality: true }),
      pool.analyseFrame(images[1].image, { descriptor: true }),
    ]);
    expect(pool.startedThreads).toBe(2);
    expect(centre.quality).toEqual(measureFaceQuality(local, centre.detection.box));
    expect(right.quality).toBeUndefined();
    expect(right.detection.pose.yaw).toBeLessThan(-12);
    expect(centre.embedding).toBeInstanceOf(Float32Array);
  }, 120_000);
});
