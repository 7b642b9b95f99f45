/**
 * Two builds of the service measured side by side, at the same time, on code exchanges: each started from its own
 * checkout (`dist/` built there), on its own new database, both with REDIS_URL's Redis; codes obtained for both first
 * (not timed), then both exchanged at once, so that both see the same machine at the same moment. A lever whose effect
 * is a few percent is lost in the drift of runs one after the other on a shared machine; side by side, it shows.
 * Prints per build: exchanges per second and, from /proc, the CPU per exchange of the process and of its main thread.
 *
 *   npm run bench:pair -- <checkout A> <checkout B>     e.g. a worktree of the commit before and this one
 *   npm run bench:pair -- anchor .                      the bare engine (scripts/bench/anchor-server.ts, the split
 *                                                       store: PostgreSQL and Redis) beside this checkout's build
 *   BENCH_CODES=800 BENCH_CONCURRENCY=8 BENCH_ROUNDS=2 (the pair swaps start order each round)
 */
import { readFileSync } from 'node:fs';
import { ANCHOR_CLIENTS, ANCHOR_REDIRECT_URI } from './bench/anchor-clients.js';
import { startAnchor } from './bench/anchor.js';
import { anchorCodeFlow, brokerCodeFlow, codes, exchange, rate, type Client, type CodeFlow } from './bench/flows.js';
import { cpuMs, startService as startBuild, withDatabase, type RunningService } from './bench/service.js';

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

interface Target {
  pid: number;
  tokenUrl: string;
  client: Client;
  flow: CodeFlow;
  stop(): void;
}

/** A checkout's build (startService runs dist/src/main.js of the working directory), or the bare engine. */
async function startIn(dir: string, databaseUrl: string): Promise<Target> {
  if (dir === 'anchor') {
    const { base, child } = await startAnchor([], { ANCHOR_STORE: 'split', ANCHOR_DATABASE_URL: databaseUrl, ANCHOR_REDIS_URL: redisUrl });
    const flow = anchorCodeFlow(base, ANCHOR_REDIRECT_URI);
    return { pid: child.pid!, tokenUrl: `${base}/token`, client: ANCHOR_CLIENTS[0], flow, stop: () => child.kill('SIGKILL') };
  }
  const s = await startService(databaseUrl, { env: { REDIS_URL: redisUrl } }, dir);
  const client = await s.createMerchant({ name: 'pair', redirect_uris: [redirectUri] });
  return { pid: s.child.pid!, tokenUrl: `${s.base}/oidc/token`, client, flow: brokerCodeFlow(s.base, redirectUri), stop: () => s.child.kill('SIGKILL') };
}

async function startService(databaseUrl: string, options: Parameters<typeof startBuild>[1], dir: string): Promise<RunningService> {
  const here = process.cwd();
  process.chdir(dir);
  try {
    return await startBuild(databaseUrl, options);
  } finally {
    process.chdir(here);
  }
}

async function round(order: string[]): Promise<Map<string, string>> {
  return withDatabase((a) =>
    withDatabase(async (b) => {
      const targets: Target[] = [];
      try {
        for (const [i, dir] of order.entries()) targets.push(await startIn(dir, [a, b][i]));
        const prepared = await Promise.all(
          targets.map(async (t) => {
            const uri = t.tokenUrl.endsWith('/oidc/token') ? redirectUri : ANCHOR_REDIRECT_URI;
            const list = await codes(t.flow, t.client, count + 100);
            await rate(100, concurrency, [], (i) => exchange(t.tokenUrl, t.client, list[count + i], uri));
            return { t, list, uri };
          }),
        );
        const before = prepared.map(({ t }) => [cpuMs(t.pid), mainThreadMs(t.pid)]);
        const rates = await Promise.all(prepared.map(({ t, list, uri }) => rate(count, concurrency, [], (i) => exchange(t.tokenUrl, t.client, list[i], uri))));
        return new Map(
          prepared.map(({ t }, i) => {
            const cpu = (cpuMs(t.pid) - before[i][0]) / count;
            const main = (mainThreadMs(t.pid) - before[i][1]) / count;
            return [order[i], `${rates[i].perSecond.toFixed(0).padStart(5)}/s, ${cpu.toFixed(2)} ms CPU, main thread ${main.toFixed(2)} ms`];
          }),
        );
      } finally {
        for (const t of targets) t.stop();
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
