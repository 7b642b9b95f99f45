/**
 * The bare-engine anchor: the same oidc-provider version, unmodified, with a minimal login of the broker's
 * shape (scripts/bench/anchor-server.ts), measured with the load of bench:token and bench:cluster.
 * Every hot-path figure of ours is read against these, taken in the same run on the same machine.
 * By default on the engine's in-memory adapter (the anchor); ANCHOR_STORES=memory,postgres,redis also
 * runs it on the simplest adapter over PostgreSQL and over Redis, to show what the store alone costs the engine.
 *
 *   BENCH_CODES=400 BENCH_LOGINS=200 BENCH_CONCURRENCY=8 ANCHOR_STORES=memory REDIS_URL (for redis)
 */
import { measureAnchor, type AnchorStore } from './bench/anchor.js';

const codesPerAlg = Number(process.env.BENCH_CODES ?? 400);
const logins = Number(process.env.BENCH_LOGINS ?? 200);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const stores = (process.env.ANCHOR_STORES ?? 'memory').split(',') as AnchorStore[];

for (const store of stores) {
  console.log(`bare oidc-provider (${store} store, minimal login), ${concurrency} concurrent clients`);
  const a = await measureAnchor({ codesPerAlg, logins, concurrency, store, redisUrl: process.env.REDIS_URL });
  for (const alg of ['RS256', 'ES256'] as const) {
    const r = a.exchanges[alg];
    console.log(`  code exchange ${alg}: ${r.perSecond.toFixed(0)}/s, p50 ${r.p50} ms, p99 ${r.p99} ms, server CPU ${r.cpuMs} ms each (${codesPerAlg} codes)`);
  }
  console.log(
    `  full logins: ${a.logins.perSecond.toFixed(1)}/s, p50 ${a.logins.p50} ms, p99 ${a.logins.p99} ms, server CPU ${a.logins.cpuMs} ms each (${logins} logins, ${a.requestsPerLogin} requests each)`,
  );
}
