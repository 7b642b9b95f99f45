/**
 * Start-up time on the embedded database: from spawning the start command to the first 200 from /health,
 * first on a fresh data folder, then again on the same folder (a restart).
 *
 *   BENCH_START_COMMAND="npm start"   (default; the command whose start is measured)
 *   BENCH_RUNS=5                      (fresh + restart pairs: each is printed, then the medians)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const command = process.env.BENCH_START_COMMAND ?? 'npm start';
const runs = Number(process.env.BENCH_RUNS ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timeToHealth(dataDir: string, port: number): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const started = performance.now();
  // Its own process group: npm, the shell and node are stopped together.
  const child = spawn('sh', ['-c', command], { env, stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`exited with ${code} before answering`))));
  try {
    for (;;) {
      const ok = await Promise.race([
        fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false),
        exited,
      ]);
      if (ok) return performance.now() - started;
      if (performance.now() - started > 120_000) throw new Error('no answer within 120 s');
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    exited.catch(() => undefined);
    const stopped = new Promise((r) => child.once('exit', r));
    try {
      process.kill(-child.pid!, 'SIGTERM');
      await Promise.race([stopped, new Promise((r) => setTimeout(r, 10_000))]);
    } catch {
      /* already gone */
    }
    // npm may exit before the service it started has closed its port: wait until nothing answers.
    for (let i = 0; i < 200 && (await fetch(`http://127.0.0.1:${port}/health`).then(() => true, () => false)); i++)
      await new Promise((r) => setTimeout(r, 50));
  }
}

console.log(`start-up to the first 200 from /health, embedded database: ${command}`);
const fresh: number[] = [];
const restart: number[] = [];
for (let i = 0; i < runs; i++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  const port = 4100 + Math.floor(Math.random() * 800);
  try {
    fresh.push(await timeToHealth(dataDir, port));
    restart.push(await timeToHealth(dataDir, port));
    console.log(`run ${i + 1}: fresh data folder ${(fresh[i] / 1000).toFixed(2)} s, restart ${(restart[i] / 1000).toFixed(2)} s`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
console.log(`median of ${runs}: fresh data folder ${(median(fresh) / 1000).toFixed(2)} s, restart ${(median(restart) / 1000).toFixed(2)} s`);
