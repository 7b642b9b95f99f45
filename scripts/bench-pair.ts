/**
 * Two builds of the service measured side by side, at the same time, on code exchanges: each started from its own
 * checkout (`dist/` built there), on its own new database, both with REDIS_URL's Redis; codes obtained for both first
 * (not timed), then both exchanged at once, so that both see the same machine at the same moment. A lever whose effect
 * is a few percent is lost in the drift of runs one after the other on a shared machine; side by side, it shows.
 * Prints per build: exchanges per second and, from /proc, the CPU per exchange of the process and of its main thread.
 *
 *   npm run bench:pair -- <checkout A> <checkout B>     e.g. a worktree of the commit before and this one
 *   BENCH_CODES=800 BENCH_CONCURRENCY=8 BENCH_ROUNDS=2 (the pair swaps start order each round)
 */
import { readFileSync } from 'node:fs';
import { brokerCodeFlow, codes, exchange, rate } from './bench/flows.js';
import { cpuMs, startService, withDatabase, type RunningService } from './bench/service.js';

const [first, second] = process.argv.slice(2);
if (!first || !second) throw new Error('usage: npm run bench:pair -- <checkout A> <checkout B>');
const count = Number(process.env.BENCH_CODES ?? 800);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redirectUri = 'http://localhost:8080/callback';

/** The main thread's CPU (its own /proc task), ms. */
function mainThreadMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Starts a checkout's build (startService runs dist/src/main.js of the working directory). */
async function startIn(dir: string, databaseUrl: string): Promise<RunningService> {
  const here = process.cwd();
  process.chdir(dir);
  try {
    return await startService(databaseUrl, { env: { REDIS_URL: redisUrl } });
  } finally {
    process.chdir(here);
  }
}

async function round(order: string[]): Promise<Map<string, string>> {
  return withDatabase((a) =>
    withDatabase(async (b) => {
      const services: RunningService[] = [];
      try {
        for (const [i, dir] of order.entries()) services.push(await startIn(dir, [a, b][i]));
        const prepared = await Promise.all(
          services.map(async (s) => {
            const merchant = await s.createMerchant({ name: 'pair', redirect_uris: [redirectUri] });
            const list = await codes(brokerCodeFlow(s.base, redirectUri), merchant, count + 100);
            await rate(100, concurrency, [s.child.pid], (i) => exchange(`${s.base}/oidc/token`, merchant, list[count + i], redirectUri));
            return { s, merchant, list };
          }),
        );
        const before = prepared.map(({ s }) => [cpuMs(s.child.pid), mainThreadMs(s.child.pid!)]);
        const rates = await Promise.all(
          prepared.map(({ s, merchant, list }) => rate(count, concurrency, [], (i) => exchange(`${s.base}/oidc/token`, merchant, list[i], redirectUri))),
        );
        return new Map(
          prepared.map(({ s }, i) => {
            const cpu = (cpuMs(s.child.pid) - before[i][0]) / count;
            const main = (mainThreadMs(s.child.pid!) - before[i][1]) / count;
            return [order[i], `${rates[i].perSecond.toFixed(0).padStart(5)}/s, ${cpu.toFixed(2)} ms CPU, main thread ${main.toFixed(2)} ms`];
          }),
        );
      } finally {
        for (const s of services) s.child.kill('SIGKILL');
      }
    }),
  );
}

console.log(`bench:pair: ${count} code exchanges each, ${concurrency} concurrent per build, both builds at once, Redis ${redisUrl}`);
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [first, second] : [second, first];
  const figures = await round(order);
  for (const dir of [first, second]) console.log(`round ${r + 1}  ${dir.padEnd(24)} ${figures.get(dir)}`);
}
