/**
 * Face engine cost: median time to embed one image (detection, landmarks, descriptor) and the process's
 * memory with the models loaded. Uses the test fixtures; prints figures, asserts nothing.
 *
 *   npm run bench:face            BENCH_RUNS=20
 */
import { readFileSync } from 'node:fs';
import { FaceApiEngine } from '@identity-broker/face';

const runs = Number(process.env.BENCH_RUNS ?? 20);
const images = ['howard-document.jpg', 'howard-center.png', 'sheldon-center.png'].map(
  (name) => [name, new Uint8Array(readFileSync(`test/fixtures/verifier-faces/${name}`))] as const,
);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

const before = process.memoryUsage();
const engine = new FaceApiEngine();
let t0 = performance.now();
await engine.warmUp();
console.log(`model load: ${(performance.now() - t0).toFixed(0)} ms`);
for (const [name, bytes] of images) {
  const times: number[] = [];
  await engine.embed(bytes);
  for (let i = 0; i < runs; i++) {
    t0 = performance.now();
    await engine.embed(bytes);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(`embed ${name}: median ${times[Math.floor(times.length / 2)].toFixed(0)} ms over ${runs} runs`);
}
const after = process.memoryUsage();
console.log(
  `memory: rss ${mib(before.rss)} -> ${mib(after.rss)} MiB, heap ${mib(before.heapUsed)} -> ${mib(after.heapUsed)} MiB, external ${mib(after.external)} MiB`,
);
