/**
 * The hot path through the cluster: full logins per second (authorization request -> test eID -> code ->
 * token) and the code exchange rate (RS256 and ES256 ID tokens), through nginx with 1 and with 2 instances on
 * one PostgreSQL (and Redis with REDIS_URL), then the bare-engine anchor in the same run, and the ratios.
 * Server CPU is the instances' (nginx's is not counted), per operation.
 *
 *   BENCH_DATABASE_SERVER=postgresql://postgres@127.0.0.1:5432/postgres (default)   REDIS_URL (optional)
 * Both are measured warm: BENCH_WARMUP logins first, not counted (a cold instance spends its first logins'
 * CPU compiling; before this the service's logins were measured cold and the anchor's warm, after its codes).
 *
 *   BENCH_INSTANCES=1,2  BENCH_LOGINS=200  BENCH_CODES=300  BENCH_CONCURRENCY=8  BENCH_WARMUP=50  BENCH_ANCHOR=1 (0: skip it)
 *   BENCH_ANCHOR_STORES=memory (the issue's anchor; add postgres, redis or split to see the engine on those stores)
 *
 * One instance is asked directly (as the anchor is), two through nginx; BENCH_VIA_PROXY=1: one through nginx too.
 *
 * BENCH_ALTERNATE=postgres,split: instead, one instance and the anchor on each named store, both running, measured in
 * alternated chunks (bench/alternated.ts; split needs REDIS_URL): BENCH_ROUNDS=8 chunks per shape and side.
 * BENCH_ANCHOR_CLAIMS=spec: the anchor's ID token carries the spec's claims, as ours does (its default: `sub` only).
 * BENCH_ANCHOR_CONFIG=spec: the anchor's engine configured as the service configures it (bench/anchor-spec-config.ts).
 *
 * BENCH_ONLY=jwks: instead, the JWKS and discovery (what every relying party fetches) of one instance, asked
 * directly (not through nginx, as the anchor is), and of the bare engine, side by side:
 *   BENCH_METADATA_REQUESTS=5000 (per endpoint)  BENCH_CONCURRENCY=8
 */
import { buildOnce, startCluster } from './cluster/cluster.js';
import { measureAnchor, type AnchorFigures, type AnchorStore } from './bench/anchor.js';
import { brokerCodeFlow, codes, createBenchMerchant, exchange, rate, requestsPerLogin, type Rate } from './bench/flows.js';
import { serverUrl } from './bench/service.js';
import { startAnchor } from './bench/anchor.js';
import { measureMetadata, type MetadataFigures, type MetadataRate } from './bench/metadata.js';
import { measureAlternated, type Side } from './bench/alternated.js';

const instanceCounts = (process.env.BENCH_INSTANCES ?? '1,2').split(',').map(Number);
const loginCount = Number(process.env.BENCH_LOGINS ?? 200);
const codesPerAlg = Number(process.env.BENCH_CODES ?? 300);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const warmup = Number(process.env.BENCH_WARMUP ?? 50);
const anchorStores = process.env.BENCH_ANCHOR === '0' ? [] : ((process.env.BENCH_ANCHOR_STORES ?? 'memory').split(',') as AnchorStore[]);
const redirectUri = 'http://localhost:8080/callback';

interface Row {
  label: string;
  logins: Rate;
  RS256: Rate;
  ES256: Rate;
  requestsPerLogin: number;
}

async function measureCluster(instances: number): Promise<Row> {
  // One instance is asked directly, as the anchor is (nginx would take its CPU from the same two cores);
  // BENCH_VIA_PROXY=1 puts nginx in front of it too.
  const direct = instances === 1 && process.env.BENCH_VIA_PROXY !== '1';
  const cluster = await startCluster({
    instances,
    withoutProxy: direct,
    databaseServer: serverUrl,
    redisUrl: process.env.REDIS_URL || undefined,
    // Codes are collected before they are exchanged: the longest code lifetime the service allows.
    // Every login comes from one address here: per-IP rate limits off, as in the other benchmarks (README, Operations).
    env: { AUTHORIZATION_CODE_TTL_SECONDS: '600', RATE_LIMITS: 'off' },
    log: (line) => console.error(line),
  });
  try {
    const base = cluster.proxyUrl;
    const pids = cluster.instances.map((i) => i.child.pid);
    const flow = brokerCodeFlow(base, redirectUri);
    const tokenUrl = `${base}/oidc/token`;
    const rs = await createBenchMerchant(base, cluster.adminToken, 'RS256', redirectUri);
    const es = await createBenchMerchant(base, cluster.adminToken, 'ES256', redirectUri);
    const perLogin = await requestsPerLogin(flow, rs);
    await rate(warmup, concurrency, pids, async () => exchange(tokenUrl, rs, await flow(rs), redirectUri));
    const logins = await rate(loginCount, concurrency, pids, async () => exchange(tokenUrl, rs, await flow(rs), redirectUri));
    const exchanges: Record<string, Rate> = {};
    for (const [alg, m] of [
      ['RS256', rs],
      ['ES256', es],
    ] as const) {
      const list = await codes(flow, m, codesPerAlg);
      exchanges[alg] = await rate(list.length, concurrency, pids, (i) => exchange(tokenUrl, m, list[i], redirectUri));
    }
    return {
      label: `${instances} instance${instances > 1 ? 's' : ''}${direct ? '' : ', nginx'}`,
      logins,
      RS256: exchanges.RS256,
      ES256: exchanges.ES256,
      requestsPerLogin: perLogin,
    };
  } finally {
    await cluster.stop();
  }
}

const fmt = (r: Rate, digits = 0) => `${r.perSecond.toFixed(digits).padStart(6)}/s ${r.cpuMs.padStart(6)} ms`;

/** BENCH_ONLY=jwks: the service's JWKS and discovery next to the bare engine's, in one run. */
async function benchMetadata(): Promise<void> {
  const count = Number(process.env.BENCH_METADATA_REQUESTS ?? 5000);
  console.log(`bench:cluster BENCH_ONLY=jwks: ${concurrency} concurrent clients, ${count} requests per endpoint, each server asked directly`);
  const cluster = await startCluster({
    instances: 1,
    databaseServer: serverUrl,
    redisUrl: process.env.REDIS_URL || undefined,
    env: { RATE_LIMITS: 'off' },
    log: (l) => console.error(l),
  });
  let ours: MetadataFigures;
  try {
    const [instance] = cluster.instances;
    ours = await measureMetadata(
      `http://127.0.0.1:${instance.port}`,
      { jwks: '/oidc/jwks', discovery: '/oidc/.well-known/openid-configuration' },
      [instance.child.pid],
      count,
      concurrency,
    );
  } finally {
    await cluster.stop();
  }
  const anchor = await startAnchor([], { ANCHOR_STORE: 'memory' });
  let bare: MetadataFigures;
  try {
    bare = await measureMetadata(anchor.base, { jwks: '/jwks', discovery: '/.well-known/openid-configuration' }, [anchor.child.pid], count, concurrency);
  } finally {
    const exited = new Promise((resolve) => anchor.child.once('exit', resolve));
    anchor.child.kill('SIGTERM');
    await exited;
  }
  const cell = (r: MetadataRate) => `${r.perSecond.toFixed(0).padStart(6)}/s p50 ${r.p50.padStart(5)} ms ${r.cpuUs.toFixed(0).padStart(5)} µs CPU`;
  console.log('\n(rate, p50, server CPU per request)   JWKS                                discovery');
  console.log(`${'service, 1 instance'.padEnd(36)} ${cell(ours.jwks)}   ${cell(ours.discovery)}`);
  console.log(`${'bare oidc-provider'.padEnd(36)} ${cell(bare.jwks)}   ${cell(bare.discovery)}`);
  const ratio = (a: MetadataRate, b: MetadataRate) => `rate ${(a.perSecond / b.perSecond).toFixed(2)}, CPU ${(a.cpuUs / b.cpuUs).toFixed(2)}`;
  console.log(`${'service : bare'.padEnd(36)} ${ratio(ours.jwks, bare.jwks).padEnd(34)}   ${ratio(ours.discovery, bare.discovery)}`);
}

/** BENCH_ALTERNATE: each store's service and anchor measured in alternated chunks, then the ratios. */
async function benchAlternated(stores: ('postgres' | 'split')[]): Promise<void> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 8);
  console.log(
    `bench:cluster BENCH_ALTERNATE: ${concurrency} concurrent clients, ${loginCount} logins and ${codesPerAlg} codes per algorithm per side, in ${rounds} alternated chunks; one instance, asked directly`,
  );
  const results: [string, Awaited<ReturnType<typeof measureAlternated>>][] = [];
  for (const store of stores) {
    if (store === 'split' && !process.env.REDIS_URL) throw new Error('BENCH_ALTERNATE=split needs REDIS_URL');
    const r = await measureAlternated({
      store,
      databaseServer: serverUrl,
      redisUrl: process.env.REDIS_URL,
      logins: loginCount,
      codesPerAlg,
      concurrency,
      warmup,
      rounds,
    });
    results.push([store, r]);
    console.log(`measured ${store}`);
  }
  console.log('\n(rate, server CPU per operation)       full logins          exchange RS256       exchange ES256');
  const row = (label: string, s: Side) => `${label.padEnd(36)} ${fmt(s.logins, 1)}   ${fmt(s.RS256)}   ${fmt(s.ES256)}`;
  for (const [store, r] of results) {
    const name = store === 'split' ? 'Redis + PostgreSQL' : 'PostgreSQL';
    console.log(row(`the service, ${name}`, r.ours));
    console.log(row(`bare oidc-provider, ${name}`, r.anchor));
    const ratio = (a: Rate, b: Rate) => (a.perSecond / b.perSecond).toFixed(2).padStart(16);
    const cpu = (a: Rate, b: Rate) => (Number(b.cpuMs) / Number(a.cpuMs)).toFixed(2);
    console.log(
      `${`ratio (rate; CPU engine : ours)`.padEnd(36)} ${ratio(r.ours.logins, r.anchor.logins)} (${cpu(r.ours.logins, r.anchor.logins)})   ${ratio(r.ours.RS256, r.anchor.RS256)} (${cpu(r.ours.RS256, r.anchor.RS256)})   ${ratio(r.ours.ES256, r.anchor.ES256)} (${cpu(r.ours.ES256, r.anchor.ES256)})`,
    );
  }
}

buildOnce();
if (process.env.BENCH_ONLY === 'jwks') {
  await benchMetadata();
  process.exit(0);
}
if (process.env.BENCH_ALTERNATE) {
  await benchAlternated(process.env.BENCH_ALTERNATE.split(',') as ('postgres' | 'split')[]);
  process.exit(0);
}
console.log(
  `bench:cluster: ${concurrency} concurrent clients, ${loginCount} logins, ${codesPerAlg} codes per algorithm, ${instanceCounts.includes(2) ? 'two instances through nginx, ' : ''}${process.env.REDIS_URL ? 'Redis' : 'no Redis'}`,
);
const rows: Row[] = [];
const header = '\n(rate, server CPU per operation)       full logins          exchange RS256       exchange ES256   requests/login';
const line = (r: Row) => `${r.label.padEnd(36)} ${fmt(r.logins, 1)}   ${fmt(r.RS256)}   ${fmt(r.ES256)}   ${r.requestsPerLogin}`;
for (const n of instanceCounts) {
  rows.push(await measureCluster(n));
  console.log(`measured: ${line(rows[rows.length - 1])}`);
}
const anchors: Array<[AnchorStore, AnchorFigures]> = [];
for (const store of anchorStores)
  anchors.push([store, await measureAnchor({ codesPerAlg, logins: loginCount, concurrency, warmup, store, redisUrl: process.env.REDIS_URL })]);

console.log(header);
for (const r of rows) console.log(line(r));
for (const [store, anchor] of anchors) {
  console.log(
    `${`bare oidc-provider, ${store} store`.padEnd(36)} ${fmt(anchor.logins, 1)}   ${fmt(anchor.exchanges.RS256)}   ${fmt(anchor.exchanges.ES256)}   ${anchor.requestsPerLogin}`,
  );
}
for (const [store, anchor] of anchors) {
  for (const r of rows) {
    const ratio = (ours: Rate, bare: Rate) => (ours.perSecond / bare.perSecond).toFixed(2).padStart(16);
    console.log(
      `${`ratio, ${r.label} : ${store} anchor`.padEnd(36)} ${ratio(r.logins, anchor.logins)}   ${ratio(r.RS256, anchor.exchanges.RS256)}   ${ratio(r.ES256, anchor.exchanges.ES256)}`,
    );
  }
}
if (!anchors.length) console.log('anchor skipped (BENCH_ANCHOR=0): npm run bench:anchor');
