import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calibrate, embedOutcome, type EmbeddingOutcome, type LabelledImage } from '@identity-broker/face/calibration';
import { decodeImage, MatchLevelTable, alignFace, fivePointsFrom68, onnxEngineName, WorkerFaceEngine } from '@identity-broker/face';
import { encodeOnnxModel, fixedWeights } from '../../test/helpers/onnx-model.js';

const FACES = join(import.meta.dirname, '../../../../test/fixtures/verifier-faces');
const face = (name: string) => new Uint8Array(readFileSync(join(FACES, name)));
const DIMENSIONS = 8;
const POOL = 8; // 112 / 8 = 14x14 cells per channel
const CELLS = 3 * (112 / POOL) ** 2;
const pooledWeights = fixedWeights(CELLS * DIMENSIONS, 7);
const meanWeights = fixedWeights(3 * DIMENSIONS, 11);

/**
 * A stand-in for an ArcFace model, written by the test: 1x3x112x112 in; out, the sum of a fixed random
 * projection of the 8x8-pooled face (so different faces get different embeddings) and a fixed projection of
 * the per-channel means (which the test recomputes by hand to check layout and normalisation).
 */
function writeModel(directory: string): string {
  const model = encodeOnnxModel({
    input: { name: 'input.1', dims: [1, 3, 112, 112] },
    output: { name: 'embedding', dims: [1, DIMENSIONS] },
    nodes: [
      { op: 'AveragePool', inputs: ['input.1'], outputs: ['pooled'], ints: { kernel_shape: [POOL, POOL], strides: [POOL, POOL] } },
      { op: 'Flatten', inputs: ['pooled'], outputs: ['flat'], int: { axis: 1 } },
      { op: 'MatMul', inputs: ['flat', 'W_pooled'], outputs: ['projected'] },
      { op: 'ReduceMean', inputs: ['input.1'], outputs: ['means'], ints: { axes: [2, 3] }, int: { keepdims: 0 } },
      { op: 'MatMul', inputs: ['means', 'W_means'], outputs: ['from_means'] },
      { op: 'Add', inputs: ['projected', 'from_means'], outputs: ['embedding'] },
    ],
    initializers: [
      { name: 'W_pooled', dims: [CELLS, DIMENSIONS], values: pooledWeights },
      { name: 'W_means', dims: [3, DIMENSIONS], values: meanWeights },
    ],
  });
  const file = join(directory, 'tiny-arcface.onnx');
  writeFileSync(file, model);
  return file;
}

/** This process's children whose command line names `entry`, from /proc. */
function childrenRunning(entry: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const parent = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
        return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(entry);
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
}

/** What the model should output for an aligned crop, computed without ONNX Runtime. */
function expectedEmbedding(aligned: { data: Uint8Array }): Float32Array {
  const normalised = (i: number, c: number) => (aligned.data[i * 3 + c] - 127.5) / 128;
  const cellsPerSide = 112 / POOL;
  const out = new Float64Array(DIMENSIONS);
  for (let c = 0; c < 3; c++) {
    let channelSum = 0;
    for (let cy = 0; cy < cellsPerSide; cy++) {
      for (let cx = 0; cx < cellsPerSide; cx++) {
        let cell = 0;
        for (let y = 0; y < POOL; y++) for (let x = 0; x < POOL; x++) cell += normalised((cy * POOL + y) * 112 + cx * POOL + x, c);
        channelSum += cell;
        const row = c * cellsPerSide * cellsPerSide + cy * cellsPerSide + cx;
        for (let d = 0; d < DIMENSIONS; d++) out[d] += (cell / (POOL * POOL)) * pooledWeights[row * DIMENSIONS + d];
      }
    }
    for (let d = 0; d < DIMENSIONS; d++) out[d] += (channelSum / (112 * 112)) * meanWeights[c * DIMENSIONS + d];
  }
  const norm = Math.hypot(...out);
  return Float32Array.from(out, (v) => v / norm);
}

/**
 * OnnxFaceEngine runs in the pool's worker processes here, as in the service (FACE_ENGINE=onnx): in jest's module
 * sandbox ONNX Runtime's own typed-array checks fail on arrays made by its native binding (another realm).
 */
describe('ONNX face engine on a model written by the test', () => {
  const directory = mkdtempSync(join(tmpdir(), 'onnx-face-'));
  const modelPath = writeModel(directory);
  const engine = new WorkerFaceEngine({ kind: 'onnx', modelPath });

  beforeAll(() => engine.warmUp(), 120_000);
  afterAll(async () => {
    await engine.terminate();
    rmSync(directory, { recursive: true, force: true });
  });

  it('aligns with the 5 ArcFace points, feeds RGB NCHW (x-127.5)/128 and returns the L2-normalised output', async () => {
    expect(engine.name).toBe('onnx-tiny-arcface');
    expect(engine.metric).toBe('cosine-similarity');
    const image = await decodeImage(face('howard-document.jpg'));
    const { embedding, detection } = await engine.embed(face('howard-document.jpg'));
    const expected = expectedEmbedding(alignFace(image, fivePointsFrom68(detection.landmarks), 112));
    expect(embedding).toHaveLength(DIMENSIONS);
    for (let d = 0; d < DIMENSIONS; d++) expect(embedding[d]).toBeCloseTo(expected[d], 4);
    expect(Math.hypot(...embedding)).toBeCloseTo(1, 5);
    expect(engine.similarity(embedding, embedding)).toBeCloseTo(1, 6);
  });

  it('refuses an image without a face, and a missing model with a clear error', async () => {
    const blank = { width: 160, height: 160, data: new Uint8Array(160 * 160 * 3).fill(128) };
    await expect(engine.embed(blank)).rejects.toMatchObject({ code: 'NO_FACE' });
    const missing = new WorkerFaceEngine({ kind: 'onnx', modelPath: join(directory, 'absent.onnx') });
    try {
      await expect(missing.warmUp()).rejects.toThrow(/cannot load ONNX face model/);
    } finally {
      await missing.terminate();
    }
  });

  it("calibrates through the calibration script's own steps into a table the matcher accepts", async () => {
    const images: LabelledImage[] = [
      { file: 'howard-document.jpg', identity: 'howard' },
      { file: 'howard-center.png', identity: 'howard' },
      { file: 'howard-right.png', identity: 'howard' },
      { file: 'sheldon-center.png', identity: 'sheldon' },
      { file: 'sheldon-right.png', identity: 'sheldon' },
    ];
    const outcomes = new Map<string, EmbeddingOutcome>();
    for (const image of images) outcomes.set(image.file, await embedOutcome(engine, face(image.file)));
    const { pairs, table } = calibrate(engine, images, outcomes, { dataset: 'test/fixtures/verifier-faces', notes: () => ['test'] });

    expect([pairs.genuine.length, pairs.impostor.length, pairs.failed.length]).toEqual([4, 6, 0]);
    for (const score of [...pairs.genuine, ...pairs.impostor]) expect(Math.abs(score)).toBeLessThanOrEqual(1 + 1e-6);
    expect(table).toMatchObject({ engine: 'onnx-tiny-arcface', metric: 'cosine-similarity', calibratedOn: { genuinePairs: 4, impostorPairs: 6 } });
    // Higher similarity = stricter: thresholds never fall as levels rise, and the table loads.
    const thresholds = Object.values(table.thresholds);
    expect(thresholds).toEqual([...thresholds].sort((a, b) => a - b));
    // (6 impostor pairs extrapolate the strict levels beyond a cosine of 1: unreachable, as they should be.)
    const levels = new MatchLevelTable(table);
    expect(levels.level(table.thresholds[1])).toBeGreaterThanOrEqual(1);
    expect(levels.level(table.thresholds[1] - 1e-3)).toBe(0);
  }, 60_000);

  it('replaces and stops its workers again and again without harm to the caller, which never loads ONNX Runtime', async () => {
    // ONNX Runtime's Node binding aborts or cannot load again when threads that loaded it come and go in one process
    // (face-runner.ts); a worker over a 1-byte bound is replaced after every call, and engines are stopped mid-call.
    const recycled: string[] = [];
    const churned = new WorkerFaceEngine({ kind: 'onnx', modelPath }, { workers: 1, recycleBytes: 1, onRecycle: (reason) => recycled.push(reason) });
    try {
      const expected = Array.from((await engine.embed(face('howard-center.png'))).embedding);
      for (let round = 0; round < 3; round++) expect(Array.from((await churned.embed(face('howard-center.png'))).embedding)).toEqual(expected);
      expect(recycled).toEqual(['memory', 'memory', 'memory']);
    } finally {
      await churned.terminate();
    }
    for (let round = 0; round < 2; round++) {
      const stopped = new WorkerFaceEngine({ kind: 'onnx', modelPath }, { workers: 1 });
      const call = stopped.embed(face('howard-center.png'));
      await stopped.terminate();
      await expect(call).rejects.toThrow('face engine terminated');
    }
    expect((await engine.embed(face('howard-right.png'))).embedding).toHaveLength(DIMENSIONS);
    const loadedHere = readFileSync('/proc/self/maps', 'utf8')
      .split('\n')
      .filter((line) => /onnxruntime/.test(line));
    expect(loadedHere).toEqual([]);
  }, 120_000);

  it("keeps the service's environment (its database URL, keys, tokens) out of its worker processes", async () => {
    const isolated = new WorkerFaceEngine({ kind: 'onnx', modelPath }, { workers: 1 });
    try {
      await isolated.warmUp();
      const workers = childrenRunning('face-worker');
      expect(workers.length).toBeGreaterThanOrEqual(1);
      // This process has dozens (npm's, jest's, the machine's); a worker only the runtime's own.
      expect(Object.keys(process.env).length).toBeGreaterThan(10);
      for (const pid of workers) {
        const names = readFileSync(`/proc/${pid}/environ`, 'utf8')
          .split('\0')
          .filter(Boolean)
          .map((entry) => entry.split('=')[0]);
        // NODE_CHANNEL_*: the IPC channel Node itself sets up for a forked process.
        const runtime = (name: string) => ['PATH', 'TZ', 'MALLOC_MMAP_THRESHOLD_', 'MALLOC_ARENA_MAX'].includes(name) || name.startsWith('NODE_CHANNEL_');
        expect(names.filter((name) => !runtime(name))).toEqual([]);
      }
    } finally {
      await isolated.terminate();
    }
  }, 60_000);

  it('names engines after the model file', () => {
    expect(onnxEngineName('/models/w600k_r50.onnx')).toBe('onnx-w600k_r50');
    expect(onnxEngineName('C:/x/glint r100.ONNX')).toBe('onnx-glint-r100');
  });
});
