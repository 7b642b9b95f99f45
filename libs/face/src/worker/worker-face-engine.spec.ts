import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { FaceError, loadMatchLevelTable, WorkerFaceEngine } from '@identity-broker/face';

const face = (name: string) => new Uint8Array(readFileSync(join(import.meta.dirname, '../../../../test/fixtures/verifier-faces', name)));

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

describe('face engine worker threads recycled over a memory bound', () => {
  const recycled: string[] = [];
  // 1 byte: every thread is over it after any call, so each call is followed by a fresh thread.
  const engine = new WorkerFaceEngine({ kind: 'face-api' }, { workers: 2, recycleBytes: 1, onRecycle: (reason) => recycled.push(reason) });
  const plain = new WorkerFaceEngine({ kind: 'face-api' }, { workers: 1 });
  afterAll(() => Promise.all([engine.terminate(), plain.terminate()]));

  it("reports each thread's own memory, never replaces a thread after loading its models, and loses no call to a replacement", async () => {
    await engine.warmUp();
    expect(recycled).toEqual([]);
    // A thread with its models loaded: tens of megabytes at least of V8 and WASM heap.
    for (const bytes of engine.threadHeapBytes) expect(bytes).toBeGreaterThan(2 ** 20 * 20);
    const images = ['howard-document.jpg', 'howard-center.png', 'howard-right.png', 'sheldon-center.png'].map(face);
    const embeddings = await Promise.all(images.map((image) => engine.embed(image)));
    expect(recycled).toEqual(['memory', 'memory', 'memory', 'memory']);
    const expected = await Promise.all(images.map((image) => plain.embed(image)));
    expect(embeddings.map((e) => Array.from(e.embedding))).toEqual(expected.map((e) => Array.from(e.embedding)));
    // Typed errors still cross a thread that is replaced after answering them.
    await expect(engine.embed(new Uint8Array([1, 2, 3]))).rejects.toMatchObject({ code: 'BAD_IMAGE' });
    expect(recycled).toHaveLength(5);
    // The thread that answered was replaced: its figure is the fresh thread's, 0 until that one has loaded its models.
    expect(engine.threadHeapBytes[0]).toBe(0);
    const deadline = Date.now() + 30_000;
    while (engine.threadHeapBytes[0] === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(engine.threadHeapBytes[0]).toBeGreaterThan(2 ** 20 * 20);
  }, 120_000);
});

describe('face engine worker threads recycled when grown and idle', () => {
  const recycled: string[] = [];
  const idleMs = 600;
  const engine = new WorkerFaceEngine({ kind: 'face-api' }, { workers: 1, idleRecycleMs: idleMs, onRecycle: (reason) => recycled.push(reason) });
  afterAll(() => engine.terminate());
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('replaces a grown thread once it stayed idle, not while calls keep coming, and not again once fresh', async () => {
    await engine.warmUp();
    const [floor] = engine.threadHeapBytes;
    await engine.embed(face('howard-document.jpg'));
    // The accurate detector's first pass grows the thread's WASM heap for good (the premise of the rule).
    expect(engine.threadHeapBytes[0] - floor).toBeGreaterThan(32 * 2 ** 20);
    await pause(idleMs / 3);
    // A call within the idle time starts it again.
    await engine.embed(face('howard-center.png'));
    await pause(idleMs / 2);
    expect(recycled).toEqual([]);
    await pause(idleMs * 2);
    expect(recycled).toEqual(['idle']);
    // The fresh thread loads its models on its own and is back at its floor; loading them arms no idle replacement.
    const deadline = Date.now() + 30_000;
    while (!(engine.threadHeapBytes[0] > 0 && engine.threadHeapBytes[0] < floor + 32 * 2 ** 20) && Date.now() < deadline) await pause(100);
    expect(engine.threadHeapBytes[0]).toBeLessThan(floor + 32 * 2 ** 20);
    await pause(idleMs * 2);
    expect(recycled).toEqual(['idle']);
    expect((await engine.embed(face('howard-right.png'))).embedding).toBeInstanceOf(Float32Array);
  }, 120_000);
});

describe('a recycled face thread and its successor', () => {
  const events: string[] = [];
  const { postMessage, terminate } = Worker.prototype;
  const engine = new WorkerFaceEngine({ kind: 'face-api' }, { workers: 1, recycleBytes: 1 });
  beforeAll(() => {
    // What the pool does with its threads, in order: each call handed to a thread, and each thread gone.
    Worker.prototype.postMessage = function (this: Worker, ...args: Parameters<Worker['postMessage']>) {
      events.push(`call to ${this.threadId}`);
      return postMessage.apply(this, args);
    };
    Worker.prototype.terminate = function (this: Worker) {
      const id = this.threadId;
      return terminate.apply(this).then((code) => (events.push(`${id} gone`), code));
    };
  });
  afterAll(async () => {
    Object.assign(Worker.prototype, { postMessage, terminate });
    await engine.terminate();
  });

  it('starts the fresh thread only once the grown one has exited, so that the two never hold memory at once', async () => {
    await engine.warmUp();
    await engine.embed(face('howard-center.png'));
    // Over the bound after that call: replaced. The next call waits for the fresh thread.
    await engine.embed(face('sheldon-center.png'));
    const [first] = events;
    const firstId = first.replace('call to ', '');
    const gone = events.indexOf(`${firstId} gone`);
    const successor = events.findIndex((e) => e.startsWith('call to ') && e !== first);
    expect({ gone: gone >= 0, successorAfterGone: successor > gone }).toEqual({ gone: true, successorAfterGone: true });
  }, 120_000);
});
