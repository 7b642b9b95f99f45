/**
 * Two builds of the service measured side by side, at the same time, on code exchanges: each started from its own
 * checkout (`dist/` built there), on its own new database, both with REDIS_URL's Redis; codes obtained for both first
 * (not timed), then both exchanged at once, so that both see the same machine at the same moment. A lever whose effect
 * is a few percent is lost in the drift of runs one after the other on a shared machine; side by side, it shows.
 * Prints per build: exchanges per second and, from /proc, the CPU per exchange of the process and of its threads (the
 * main thread, libuv's pool where signatures run, V8's collector helpers).
 *
 *   npm run bench:pair -- <checkout A> <checkout B>     e.g. a worktree of the commit before and this one
 *   npm run bench:pair -- anchor .                      the bare engine (scripts/bench/anchor-server.ts, the split
 *                                                       store: PostgreSQL and Redis) beside this checkout's build
 *   BENCH_CODES=800 BENCH_CONCURRENCY=8 BENCH_ROUNDS=2 (the pair swaps start order each round)
 *   BENCH_PAIR_ALONE=1 REDIS_PID=$(pgrep -x redis-server): one side after the other instead, with Redis's CPU per exchange
 *                                                       and PostgreSQL's (every process named postgres on this machine)
 */
import { readdirSync, readFileSync } from 'node:fs';
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
const alone = process.env.BENCH_PAIR_ALONE === '1';
/** Redis's own CPU per exchange, one side at a time (BENCH_PAIR_ALONE=1): REDIS_PID, the server on this machine. */
const redisPid = Number(process.env.REDIS_PID ?? 0) || undefined;

/** CPU so far (ms) of a process's threads by kind, from /proc/<pid>/task: the main thread, libuv's pool, V8's helpers. */
function threadsMs(pid: number): Record<'main' | 'libuv' | 'v8', number> {
  const sums = { main: 0, libuv: 0, v8: 0 };
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const kind = task === String(pid) ? 'main' : name.startsWith('libuv-worker') ? 'libuv' : name.startsWith('V8Worker') ? 'v8' : undefined;
    if (kind) sums[kind] += (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return sums;
}

/** CPU so far (ms) of every PostgreSQL process on this machine, by pid: a backend started during a run counts from 0. */
function postgresMs(): Map<number, number> {
  const sums = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      sums.set(Number(entry), (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // the process ended between the listing and the read
    }
  }
  return sums;
}

const postgresSince = (before: Map<number, number>): number => [...postgresMs()].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);

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
        const measure = async ({ t, list, uri }: (typeof prepared)[number]) => {
          const [cpu, threads, redis, postgres] = [cpuMs(t.pid), threadsMs(t.pid), redisPid ? cpuMs(redisPid) : 0, postgresMs()];
          const r = await rate(count, concurrency, [], (i) => exchange(t.tokenUrl, t.client, list[i], uri));
          const per = (ms: number) => (ms / count).toFixed(2);
          const after = threadsMs(t.pid);
          const kinds = `main thread ${per(after.main - threads.main)}, libuv ${per(after.libuv - threads.libuv)}, V8 helpers ${per(after.v8 - threads.v8)}`;
          const redisPart = alone && redisPid ? `; Redis ${per(cpuMs(redisPid) - redis)} ms` : '';
          const postgresPart = alone ? `; PostgreSQL ${per(postgresSince(postgres))} ms` : '';
          return `${r.perSecond.toFixed(0).padStart(5)}/s, ${per(cpuMs(t.pid) - cpu)} ms CPU (${kinds})${redisPart}${postgresPart}`;
        };
        // Side by side (both at once), or one after the other (BENCH_PAIR_ALONE=1: Redis's CPU is then each one's).
        const figures = alone ? [] : await Promise.all(prepared.map(measure));
        if (alone) for (const p of prepared) figures.push(await measure(p));
        return new Map(prepared.map((_, i) => [order[i], figures[i]]));
      } finally {
        for (const t of targets) t.stop();
      }
    }),
  );
}

console.log(
  `bench:pair: ${count} code exchanges each, ${concurrency} concurrent per build, ${alone ? 'one after the other' : 'both at once'}, Redis ${redisUrl}`,
);
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [first, second] : [second, first];
  const figures = await round(order);
  for (const dir of [first, second]) console.log(`round ${r + 1}  ${dir.padEnd(24)} ${figures.get(dir)}`);
}
