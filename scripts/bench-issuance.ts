/**
 * OpenID4VCI issuance: credentials issued per second and server CPU per credential at the built service
 * (`npm run bench:issuance` builds first) on a fresh PostgreSQL database, customer-test (its own test issuer CA):
 * per offer, the token request with DPoP, a c_nonce and the credential request, with one ES256 key proof and with a
 * batch of 10; then GETs of the Status List Token the credentials name, as a verifier makes them, with the queries
 * the service sent meanwhile (none per request: served from memory) and the answers compared byte for byte.
 * Each figure is printed beside its anchor, measured alternately in the same run: the same cryptographic work by
 * the library alone in this process (scripts/bench/issuance-anchor.ts), and for the status list a bare node:http
 * server answering the same bytes. Offers are made and read before the clock starts (scripts/bench/issuance-offers.ts).
 *
 *   BENCH_CREDENTIALS=200 (per shape and round) BENCH_CONCURRENCY=8 BENCH_ROUNDS=2 BENCH_WARMUP=20 BENCH_STATUS_GETS=2000
 */
import { availableParallelism } from 'node:os';
import { rmSync } from 'node:fs';
import { loadServiceConfig } from '../src/bootstrap/scheme-manifests.js';
import { libraryIssuer } from './bench/issuance-anchor.js';
import { makeOffers, sharedSecrets, type ReadOffer } from './bench/issuance-offers.js';
import { runWallets, walletKeys } from './bench/issuance-wallet.js';
import { cpuMs, percentiles, startService, withDatabase, type RunningService } from './bench/service.js';
import { bareTokenServer, getMany } from './bench/status-list-load.js';

const count = Number(process.env.BENCH_CREDENTIALS ?? 200);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const warmup = Number(process.env.BENCH_WARMUP ?? 20);
const statusGets = Number(process.env.BENCH_STATUS_GETS ?? 2000);
const BATCH = 10;
const hook = ['--import', new URL('./bench/pg-query-hook.mjs', import.meta.url).pathname];

/** What runs on the instance's own clock (as in test/e2e/oidc-login-round-trips.e2e-spec.ts), whatever the requests. */
const isBackground = (q: string) =>
  /^\s*SELECT 1\s*$/.test(q) ||
  /FROM "?signing_keys"?/.test(q) ||
  /\bciba_outbox\b/.test(q) ||
  /pg_(try_)?advisory_(un)?lock\(/.test(q) ||
  /^\s*DELETE FROM .*"?expires_at"?\s*<=?/is.test(q);
/** StatusListTokens' check of every list's version, at most once per VCI_STATUS_LIST_REFRESH_SECONDS, not per request. */
const isVersionCheck = (q: string) => /^\s*SELECT id, version::text AS version FROM credential_status_lists\s*$/.test(q);

interface Totals {
  credentials: number;
  cpuMs: number;
  seconds: number;
}
const add = (t: Totals, credentials: number, cpu: number, seconds: number) => ({
  credentials: t.credentials + credentials,
  cpuMs: t.cpuMs + cpu,
  seconds: t.seconds + seconds,
});
const zero = (): Totals => ({ credentials: 0, cpuMs: 0, seconds: 0 });
const row = (label: string, perSecond: number, cpu: number, latency = '') =>
  console.log(`  ${label.padEnd(42)} ${perSecond.toFixed(0).padStart(8)}/s ${cpu.toFixed(2).padStart(10)} ms${latency}`);

/** The service's part of one measurement: `offers` through the wallets; answers the figures and one credential. */
async function serviceRun(service: RunningService, offers: ReadOffer[], proofsPerRequest: number) {
  const keys = await walletKeys(offers.length, proofsPerRequest);
  const before = cpuMs(service.child.pid);
  const run = await runWallets(service.base, offers, keys, concurrency);
  const cpu = cpuMs(service.child.pid) - before;
  return { ...run, cpu, ...percentiles(run.latencies) };
}

/** The status-list URI an SD-JWT VC names (status.status_list.uri, Token Status List §6.1). */
function statusUriOf(credential: string): string {
  const payload = JSON.parse(Buffer.from(credential.split('~')[0].split('.')[1], 'base64url').toString()) as { status: { status_list: { uri: string } } };
  return payload.status.status_list.uri;
}

const secrets = sharedSecrets();
await withDatabase(async (databaseUrl) => {
  const service = await startService(databaseUrl, { nodeArgs: hook, env: secrets });
  const dataDir = `/tmp/bench-${new URL(service.base).port}`;
  let bare: Awaited<ReturnType<typeof bareTokenServer>> | undefined;
  try {
    const config = loadServiceConfig({
      ...process.env,
      ...secrets,
      APP_ENV: process.env.APP_ENV ?? 'customer-test',
      BASE_URL: service.base,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
    });
    const batches = Math.max(1, Math.round(count / BATCH));
    const offers = await makeOffers(config, databaseUrl, warmup + 2 + rounds * (count + batches));
    const take = (n: number) => offers.splice(0, n);
    const library = await libraryIssuer();

    // Warm both sides (JIT, the service's signer and status list loaded) before anything is counted. The warm-up's
    // queries are recorded too: what one exchange costs the database, and proof that the hook sees them.
    await fetch(`${service.base}/__pg-queries/on`);
    await serviceRun(service, take(warmup), 1);
    const exchangeQueries = ((await (await fetch(`${service.base}/__pg-queries/off`)).json()) as string[]).filter((q) => !isBackground(q));
    const warm = await serviceRun(service, take(2), BATCH);
    await library.measure(warmup, 1);
    await library.measure(2, BATCH);

    console.log(
      `OpenID4VCI issuance at the built service (PostgreSQL, customer-test), ${availableParallelism()} cores: ${count} credentials per shape and round, ${concurrency} concurrent wallets, ${rounds} rounds alternated with the library alone`,
    );
    console.log(
      `  database: ${(exchangeQueries.length / warmup).toFixed(1)} queries per exchange of one offer (token, nonce, credential; warm-up, BEGIN/COMMIT included)`,
    );
    console.log(`  ${''.padEnd(42)} ${'per second'.padStart(10)} ${'CPU each'.padStart(13)}   latency p50 / p95 ms (per request)`);
    const service1 = [zero(), zero()];
    const library1 = [zero(), zero()];
    for (let r = 1; r <= rounds; r++) {
      for (const [shape, proofs, requests] of [
        [0, 1, count],
        [1, BATCH, batches],
      ] as const) {
        const s = await serviceRun(service, take(requests), proofs);
        const label = proofs === 1 ? '1 key proof per request' : `batch of ${BATCH} key proofs`;
        row(`round ${r}, ${label}, service`, s.credentials.length / s.seconds, s.cpu / s.credentials.length, `   ${s.p50} / ${s.p95}`);
        service1[shape] = add(service1[shape], s.credentials.length, s.cpu, s.seconds);
        const l = await library.measure(requests, proofs);
        row(`round ${r}, ${label}, library`, l.perSecond, l.cpuMs);
        library1[shape] = add(library1[shape], requests * proofs, l.cpuMs * requests * proofs, (requests * proofs) / l.perSecond);
      }
    }
    for (const [shape, label] of [
      [0, '1 ES256 key proof'],
      [1, `batch of ${BATCH}`],
    ] as const) {
      const s = service1[shape];
      const l = library1[shape];
      const sCpu = s.cpuMs / s.credentials;
      const lCpu = l.cpuMs / l.credentials;
      console.log(
        `${label}, all rounds: service ${(s.credentials / s.seconds).toFixed(0)} credentials/s, ${sCpu.toFixed(2)} ms server CPU per credential; library ${(l.credentials / l.seconds).toFixed(0)}/s, ${lCpu.toFixed(2)} ms; service CPU : library CPU ${(sCpu / lCpu).toFixed(2)}`,
      );
    }

    // The status list a verifier fetches: the list the credentials name, its token built once before the clock.
    const url = statusUriOf(warm.credentials[0]);
    const built = await getMany(url, 1, 1);
    bare = await bareTokenServer(built.first);
    console.log(`Status List Token GET (${built.first.length} bytes), ${statusGets} GETs per round, ${concurrency} concurrent verifiers`);
    const queries: string[] = [];
    let differing = 0;
    for (let r = 1; r <= rounds; r++) {
      await fetch(`${service.base}/__pg-queries/on`);
      const before = cpuMs(service.child.pid);
      const s = await getMany(url, statusGets, concurrency);
      const cpu = cpuMs(service.child.pid) - before;
      queries.push(...((await (await fetch(`${service.base}/__pg-queries/off`)).json()) as string[]));
      differing += s.differing + (s.first === built.first ? 0 : 1);
      row(`round ${r}, the service`, statusGets / s.seconds, cpu / statusGets);
      const bareBefore = cpuMs(bare.child.pid);
      const b = await getMany(bare.url, statusGets, concurrency);
      row(`round ${r}, bare node:http, same bytes`, statusGets / b.seconds, (cpuMs(bare.child.pid) - bareBefore) / statusGets);
    }
    const perRequest = queries.filter((q) => !isBackground(q) && !isVersionCheck(q));
    console.log(
      `  ${rounds * statusGets} GETs: ${perRequest.length} queries of their own, ${queries.filter(isVersionCheck).length} list-version checks (at most one per VCI_STATUS_LIST_REFRESH_SECONDS=${config.credentialIssuer.statusListRefreshSeconds}), ${queries.filter(isBackground).length} of the instance's clock; answers differing from the first token: ${differing}`,
    );
    if (perRequest.length || differing) {
      for (const q of perRequest.slice(0, 10)) console.log(`    ${q.replace(/\s+/g, ' ').slice(0, 120)}`);
      console.log('  NOT served from memory');
      process.exitCode = 1;
    } else console.log('  served from memory: no query per GET, the same token bytes every time');
  } finally {
    bare?.child.kill();
    await stop(service);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** Ends the service and waits for it, so that the database can be dropped and nothing is left running. */
async function stop(service: RunningService): Promise<void> {
  if (service.child.exitCode !== null) return;
  const exited = new Promise((resolve) => service.child.once('exit', resolve));
  service.child.kill();
  await exited;
}
