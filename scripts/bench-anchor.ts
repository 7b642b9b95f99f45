/**
 * The bare-engine anchor: the same oidc-provider version, unmodified, in-memory, with a minimal login of the
 * broker's shape (scripts/bench/anchor-server.ts), measured with the load of bench:token and bench:cluster.
 * Every hot-path figure of ours is read against these, taken in the same run on the same machine.
 *
 *   BENCH_CODES=400 BENCH_LOGINS=200 BENCH_CONCURRENCY=8
 */
import { measureAnchor } from './bench/anchor.js';

const codesPerAlg = Number(process.env.BENCH_CODES ?? 400);
const logins = Number(process.env.BENCH_LOGINS ?? 200);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);

console.log(`bare oidc-provider (in-memory adapter, minimal login), ${concurrency} concurrent clients`);
const a = await measureAnchor({ codesPerAlg, logins, concurrency });
for (const alg of ['RS256', 'ES256'] as const) {
  const r = a.exchanges[alg];
  console.log(`code exchange ${alg}: ${r.perSecond.toFixed(0)}/s, p50 ${r.p50} ms, p99 ${r.p99} ms, server CPU ${r.cpuMs} ms each (${codesPerAlg} codes)`);
}
console.log(`full logins: ${a.logins.perSecond.toFixed(1)}/s, p50 ${a.logins.p50} ms, p99 ${a.logins.p99} ms, server CPU ${a.logins.cpuMs} ms each (${logins} logins, ${a.requestsPerLogin} requests each)`);
