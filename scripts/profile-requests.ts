/**
 * Server CPU per request of one login and code exchange, the service beside the bare-engine anchor: logins run one
 * at a time (so each request's CPU is its own) and a hook in each server (bench/request-cpu-hook.mjs) sums the CPU
 * per request type. Shows where the service spends more than the bare engine, request by request.
 *
 *   npm run profile:requests      BENCH_LOGINS=300 (after 50 to warm up)   PostgreSQL as in the other benchmarks, REDIS_URL
 *   ANCHOR_STORE: the anchor's store (default: the service's, postgres or split with REDIS_URL; memory)
 */
import { ANCHOR_CLIENTS, ANCHOR_REDIRECT_URI } from './bench/anchor-clients.js';
import { startAnchor } from './bench/anchor.js';
import { anchorCodeFlow, brokerCodeFlow, exchange, type Client, type CodeFlow } from './bench/flows.js';
import { startService, withDatabase } from './bench/service.js';

const logins = Number(process.env.BENCH_LOGINS ?? 300);
const hook = ['--import', new URL('./bench/request-cpu-hook.mjs', import.meta.url).pathname];
const redirectUri = 'http://localhost:8080/callback';

type Writes = Record<'http' | 'postgres' | 'redis' | 'other', number>;
type Row = [string, number, Writes];

async function measure(base: string, tokenUrl: string, flow: CodeFlow, client: Client, uri: string): Promise<Row[]> {
  for (let i = 0; i < 50; i++) await exchange(tokenUrl, client, await flow(client), uri);
  await fetch(`${base}/__request-cpu/on`);
  for (let i = 0; i < logins; i++) await exchange(tokenUrl, client, await flow(client), uri);
  const rows = (await (await fetch(`${base}/__request-cpu/off`)).json()) as [string, { count: number; cpuMs: number; writes: Writes }][];
  const perRequest = (w: Writes) => Object.fromEntries(Object.entries(w).map(([k, n]) => [k, n / logins])) as Writes;
  return rows.map(([key, row]) => [key, row.cpuMs / row.count, perRequest(row.writes)]);
}

const fmtWrites = (w: Writes) => `${w.http.toFixed(1).padStart(4)} ${w.postgres.toFixed(1).padStart(4)} ${w.redis.toFixed(1).padStart(4)}`;

function print(title: string, rows: Row[]): void {
  console.log(`\n${title}\n     CPU    socket writes: response, PostgreSQL, Redis`);
  for (const [key, ms, w] of rows) console.log(`  ${ms.toFixed(2).padStart(6)} ms  ${fmtWrites(w)}  ${key}`);
  const total: Writes = { http: 0, postgres: 0, redis: 0, other: 0 };
  for (const [, , w] of rows) for (const k of Object.keys(total) as (keyof Writes)[]) total[k] += w[k];
  console.log(
    `  ${rows
      .reduce((sum, [, ms]) => sum + ms, 0)
      .toFixed(2)
      .padStart(6)} ms  ${fmtWrites(total)}  in all, per login and exchange`,
  );
}

console.log(`server CPU per request, ${logins} logins one at a time (RS256 ID tokens)`);
await withDatabase(async (url) => {
  const service = await startService(url, { nodeArgs: hook });
  try {
    const merchant = await service.createMerchant({ name: 'profile', redirect_uris: [redirectUri] });
    print(
      `the service (PostgreSQL${process.env.REDIS_URL ? ' and Redis' : ''}, through the test eID)`,
      await measure(service.base, `${service.base}/oidc/token`, brokerCodeFlow(service.base, redirectUri), merchant, redirectUri),
    );
  } finally {
    service.child.kill('SIGKILL');
  }
});
// The anchor on the same store as the service (the engine's own cost of that store), or in memory (ANCHOR_STORE=memory).
const anchorStore = process.env.ANCHOR_STORE ?? (process.env.REDIS_URL ? 'split' : 'postgres');
await withDatabase(async (url) => {
  const anchor = await startAnchor(hook, { ANCHOR_STORE: anchorStore, ANCHOR_DATABASE_URL: url, ANCHOR_REDIS_URL: process.env.REDIS_URL ?? '' });
  try {
    print(
      `the bare engine (anchor, ${anchorStore} store)`,
      await measure(anchor.base, `${anchor.base}/token`, anchorCodeFlow(anchor.base, ANCHOR_REDIRECT_URI), ANCHOR_CLIENTS[0], ANCHOR_REDIRECT_URI),
    );
  } finally {
    anchor.child.kill();
  }
});
