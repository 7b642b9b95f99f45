/**
 * Start-up time on the embedded database: from spawning the start command to the first 200 from /health/live
 * (the port answers) and from /health/ready (migrations, database, signing keys and face models all ready), in three
 * states, one after the other in each run:
 *   clone    a new clone after `npm ci`: no build output (dist), no .cache (database template, module compile
 *            cache), a new data folder; `npm start` builds, makes the database from scratch and saves the template
 *   new data everything built and cached, a new data folder (unpacked from the template)
 *   restart  the same data folder again, everything cached
 *
 *   BENCH_START_COMMAND="npm start"   (default; the command whose start is measured)
 *   BENCH_RUNS=5                      (each run prints its figures, then the medians)
 *   BENCH_CLONE=0                     (skip the clone state, which deletes dist and .cache of this checkout)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const command = process.env.BENCH_START_COMMAND ?? 'npm start';
const runs = Number(process.env.BENCH_RUNS ?? 5);
const withClone = process.env.BENCH_CLONE !== '0';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

interface Timing {
  live: number;
  ready: number;
}

const answers = (url: string) => fetch(url).then((r) => r.ok, () => false);

async function timeStart(dataDir: string, port: number): Promise<Timing> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.NODE_COMPILE_CACHE; // the start script's own folder in .cache
  const base = `http://127.0.0.1:${port}/health`;
  const started = performance.now();
  // Its own process group: npm, the shell and node are stopped together.
  const child = spawn('sh', ['-c', command], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`exited with ${code} before answering`))));
  const firstOk = async (url: string): Promise<number> => {
    for (;;) {
      if (await Promise.race([answers(url), exited])) return performance.now() - started;
      if (performance.now() - started > 180_000) throw new Error(`no 200 from ${url} within 180 s`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  try {
    const live = await firstOk(`${base}/live`);
    const ready = await firstOk(`${base}/ready`);
    return { live, ready };
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
    for (let i = 0; i < 200 && (await fetch(`${base}/live`).then(() => true, () => false)); i++) await new Promise((r) => setTimeout(r, 50));
  }
}

const states = [...(withClone ? ['clone'] : []), 'new data', 'restart'];
const figures = new Map<string, Timing[]>(states.map((s) => [s, []]));
const show = (t: Timing) => `live ${seconds(t.live)}, ready ${seconds(t.ready)}`;

/** Starts on a new data folder (then again on the same folder when `restart`), recording each figure. */
async function measure(port: number, first: string, restart: boolean): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  try {
    const line: string[] = [];
    for (const state of restart ? [first, 'restart'] : [first]) {
      const timing = await timeStart(dataDir, port);
      figures.get(state)!.push(timing);
      line.push(`${state}: ${show(timing)}`);
    }
    return line;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`start-up to the first 200 from /health/live and /health/ready, embedded database: ${command}`);
for (let i = 0; i < runs; i++) {
  const port = 4100 + Math.floor(Math.random() * 800);
  const line: string[] = [];
  if (withClone) {
    for (const built of ['dist', '.cache']) rmSync(join(root, built), { recursive: true, force: true });
    line.push(...(await measure(port, 'clone', false)));
  }
  line.push(...(await measure(port, 'new data', true)));
  console.log(`run ${i + 1}: ${line.join('; ')}`);
}
const medians = states.map((s) => {
  const ts = figures.get(s)!;
  return `${s}: live ${seconds(median(ts.map((t) => t.live)))}, ready ${seconds(median(ts.map((t) => t.ready)))}`;
});
console.log(`median of ${runs}: ${medians.join('; ')}`);
