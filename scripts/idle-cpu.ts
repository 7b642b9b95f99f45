/**
 * CPU of an idle instance: the built service (run `npm run build` first) on PostgreSQL with Redis, started, waited
 * for until /health/ready, left alone a little (the tail of start-up is not idleness), then its utime + stime from
 * /proc/<pid>/stat (every thread of the process) over a window with no traffic at all, as a share of one core.
 *
 *   npm run bench:idle                      (300 s window)
 *   npm run bench:idle -- --seconds 20      (a shorter window; a smoke check, the clock ticks are 10 ms)
 *
 *   DATABASE_URL   the database to run on (default: a new one on BENCH_DATABASE_SERVER, dropped afterwards)
 *   REDIS_URL      Redis, as in production (without it the figure is of an instance without Redis, and says so)
 *   BENCH_SETTLE_SECONDS=30   the wait between /health/ready and the window (the collection of start-up's garbage
 *                             runs about 20 s after ready)
 */
import { readFileSync } from 'node:fs';
import { cpuMs, startService, withDatabase } from './bench/service.js';

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const windowSeconds = Number(argument('--seconds') ?? 300);
const settleSeconds = Number(process.env.BENCH_SETTLE_SECONDS ?? 30);
if (!(windowSeconds > 0) || !(settleSeconds >= 0)) throw new Error('--seconds takes a positive number of seconds');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Seconds the machine has been up, from /proc/uptime: the clock the window is measured on. */
const uptime = () => Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);

async function untilReady(base: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (
    !(await fetch(`${base}/health/ready`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline) throw new Error('not ready within 180 s');
    await sleep(500);
  }
}

async function measure(databaseUrl: string): Promise<void> {
  const service = await startService(databaseUrl);
  const pid = service.child.pid;
  try {
    await untilReady(service.base);
    await sleep(settleSeconds * 1000);
    const [cpu0, t0] = [cpuMs(pid), uptime()];
    await sleep(windowSeconds * 1000);
    const [cpu1, t1] = [cpuMs(pid), uptime()];
    const share = (cpu1 - cpu0) / ((t1 - t0) * 1000);
    console.log(
      `idle ${(t1 - t0).toFixed(1)} s, ${process.env.REDIS_URL ? 'PostgreSQL + Redis' : 'PostgreSQL without Redis'}: ` +
        `${cpu1 - cpu0} ms CPU = ${(share * 100).toFixed(3)}% of one core`,
    );
  } finally {
    const exited = new Promise((r) => service.child.once('exit', r));
    service.child.kill('SIGTERM');
    await exited;
  }
}

await (process.env.DATABASE_URL ? measure(process.env.DATABASE_URL) : withDatabase(measure));
