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
 *
 * Beside the wall times, the CPU the service's main thread had used when its port opened (a probe loaded with
 * --import, scripts/bench/listening-cpu-probe.mjs): the part of start-up that does not depend on what else the
 * machine runs, so it compares two versions on a busy machine where wall times do not.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
const command = process.env.BENCH_START_COMMAND ?? 'npm start';
const runs = Number(process.env.BENCH_RUNS ?? 5);
const withClone = process.env.BENCH_CLONE !== '0';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

interface Timing {
  live: number;
  ready: number;
  /** CPU of the main thread up to listening (ms), NaN when the probe wrote nothing. */
  mainCpu: number;
}

const probe = pathToFileURL(join(root, 'scripts', 'bench', 'listening-cpu-probe.mjs')).href;

function mainCpuAtListening(file: string): number {
  if (!existsSync(file)) return NaN;
  const last = readFileSync(file, 'utf8').trim().split('\n').pop()!;
  return (JSON.parse(last) as { mainCpu: number }).mainCpu;
}

const answers = (url: string) =>
  fetch(url).then(
    (r) => r.ok,
    () => false,
  );

async function timeStart(dataDir: string, port: number): Promise<Timing> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.NODE_COMPILE_CACHE; // the start script's own folder in .cache
  const probeFile = join(dataDir, `listening-${port}.jsonl`);
  env.BENCH_PROBE_FILE = probeFile;
  env.NODE_OPTIONS = [env.NODE_OPTIONS, `--import ${probe}`].filter(Boolean).join(' ');
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
    const mainCpu = mainCpuAtListening(probeFile);
    rmSync(probeFile, { force: true });
    return { live, ready, mainCpu };
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
    for (
      let i = 0;
      i < 200 &&
      (await fetch(`${base}/live`).then(
        () => true,
        () => false,
      ));
      i++
    )
      await new Promise((r) => setTimeout(r, 50));
  }
}

const states = [...(withClone ? ['clone'] : []), 'new data', 'restart'];
const figures = new Map<string, Timing[]>(states.map((s) => [s, []]));
const show = (t: Timing) => `live ${seconds(t.live)}, ready ${seconds(t.ready)} (main thread CPU to listening ${seconds(t.mainCpu)})`;

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
  return `${s}: ${show({ live: median(ts.map((t) => t.live)), ready: median(ts.map((t) => t.ready)), mainCpu: median(ts.map((t) => t.mainCpu)) })}`;
});
console.log(`median of ${runs}: ${medians.join('; ')}`);
