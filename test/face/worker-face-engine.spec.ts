import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FaceError } from '../../libs/face/src/errors.js';
import { loadMatchLevelTable } from '../../libs/face/src/levels/load-calibration-table.js';
import { WorkerFaceEngine } from '../../libs/face/src/worker/worker-face-engine.js';

const face = (name: string) => new Uint8Array(readFileSync(join(import.meta.dirname, '../fixtures/verifier-faces', name)));

describe('face engine in a worker thread', () => {
  const engine = new WorkerFaceEngine();
  afterAll(() => engine.terminate());

  it('embeds off the main thread with the same results and typed errors', async () => {
    await engine.warmUp();
    const levels = loadMatchLevelTable(engine.name);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const [document, selfie] = await Promise.all([engine.embed(face('howard-document.jpg')), engine.embed(face('howard-center.png'))]);
    clearInterval(timer);
    // The event loop kept turning while two faces were embedded (about a second of CPU).
    expect(ticks).toBeGreaterThan(20);
    expect(document.embedding).toBeInstanceOf(Float32Array);
    expect(levels.level(engine.similarity(document.embedding, selfie.embedding))).toBeGreaterThanOrEqual(7);
    expect((await engine.detect(face('howard-right.png')))[0].pose.yaw).toBeLessThan(-12);
    await expect(engine.embed(new Uint8Array([1, 2, 3]))).rejects.toBeInstanceOf(FaceError);
    await expect(engine.embed(new Uint8Array([1, 2, 3]))).rejects.toMatchObject({ code: 'BAD_IMAGE' });
  }, 60_000);
});
