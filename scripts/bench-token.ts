/**
 * Code exchange throughput and latency on PostgreSQL, for RS256 and ES256 merchants.
 * Starts the built service (`npm run bench:token` builds first) on a fresh database, obtains codes
 * through the test eID, then times POST /oidc/token with a few concurrent clients.
 *
 * Then two comparisons, each in alternated rounds on one service (the first kind first in odd rounds, the second in
 * even ones), so that warm-up and drift fall on both alike: the exchange with `verified_claims` requested (OpenID
 * Connect for Identity Assurance, in the ID token) beside the plain one, and a FAPI 2.0 merchant (PAR,
 * private_key_jwt, DPoP) beside a plain one.
 *
 *   BENCH_DATABASE_SERVER=postgresql://postgres@127.0.0.1:5432/postgres  (default)
 *   BENCH_CODES=400 BENCH_CONCURRENCY=8 BENCH_ROUNDS=3
 */
import { createHash, randomBytes } from 'node:crypto';
import { TestBrowser } from '../test/support/test-browser.js';
import { createFapiMerchant, fapiCode, fapiExchange } from './bench/fapi-exchange.js';
import { cpuMs, percentiles, type RunningService, startService, withDatabase } from './bench/service.js';

const codesPerAlg = Number(process.env.BENCH_CODES ?? 400);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
/** What a KYC merchant asks for: the document evidence with its checks, and the person's verified name and birth date. */
const VERIFIED_CLAIMS = JSON.stringify({
  id_token: {
    verified_claims: {
      verification: {
        trust_framework: null,
        time: null,
        verification_process: null,
        evidence: [
          { type: { value: 'document' }, check_details: [{ check_method: null, check_id: null }], document_details: { type: null, document_number: null } },
        ],
      },
      claims: { given_name: null, family_name: null, birthdate: null },
    },
  },
});
const redirectUri = 'http://localhost:8080/callback';
const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');

async function code(base: string, clientId: string, claims?: string): Promise<string> {
  const browser = new TestBrowser(base);
  const query = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    scope: 'openid profile',
    redirect_uri: redirectUri,
    state: 's',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    login_hint: 'eid:test',
    ...(claims ? { claims } : {}),
  });
  let page = await browser.follow(await browser.get(`${base}/its/index.html?${query}`));
  page = await browser.follow(await browser.submit(page, 'person', 'uto-passport'));
  return new URL(page.location!).searchParams.get('code')!;
}

type Exchange = { headers: Record<string, string>; body: URLSearchParams };

/** The plain merchant's exchange: client_secret_basic, no proof. */
function basicExchange(m: { client_id: string; client_secret: string }, code: string): Exchange {
  return {
    headers: {
      authorization: `Basic ${Buffer.from(`${m.client_id}:${m.client_secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }),
  };
}

/** Times the exchanges, made before the clock starts (a FAPI client's signing is the client's work, not the server's). */
async function measure(base: string, exchanges: Exchange[], pid: number | undefined) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const cpuBefore = cpuMs(pid);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < exchanges.length) {
        const exchange = exchanges[next++]!;
        const t0 = performance.now();
        const res = await fetch(`${base}/oidc/token`, { method: 'POST', headers: exchange.headers, body: exchange.body });
        await res.text();
        if (res.status !== 200) throw new Error(`exchange failed: ${res.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuPerExchange = ((cpuMs(pid) - cpuBefore) / exchanges.length).toFixed(2);
  return { perSecond: (exchanges.length / seconds).toFixed(0), cpuPerExchange, ...percentiles(latencies) };
}

await withDatabase(async (databaseUrl) => {
  const service = await startService(databaseUrl);
  try {
    console.log(`code exchange on PostgreSQL: ${codesPerAlg} codes per algorithm, ${concurrency} concurrent clients`);
    for (const alg of ['RS256', 'ES256']) {
      const m = await service.createMerchant({ name: `bench ${alg}`, redirect_uris: [redirectUri], id_token_signed_response_alg: alg });
      const codes: string[] = [];
      for (let i = 0; i < codesPerAlg; i++) codes.push(await code(service.base, m.client_id));
      const r = await measure(
        service.base,
        codes.map((c) => basicExchange(m, c)),
        service.child.pid,
      );
      console.log(`${alg}: ${r.perSecond} exchanges/s, p50 ${r.p50} ms, p99 ${r.p99} ms, server CPU ${r.cpuPerExchange} ms per exchange`);
    }
    await compareVerifiedClaims(service);
    await compareFapi(service);
  } finally {
    service.child.kill();
  }
});

/** One kind of exchange in an alternated comparison: how its codes are obtained and how each is exchanged. */
interface ExchangeKind {
  name: string;
  code(): Promise<string>;
  exchange(code: string): Exchange | Promise<Exchange>;
}

/**
 * Two kinds of exchange on one service in alternated rounds (the first kind first in odd rounds, the second in even
 * ones), so that warm-up and drift fall on both; each line one batch, then the medians and the second's ratio to the first.
 */
async function alternated(service: RunningService, title: string, [first, second]: [ExchangeKind, ExchangeKind]): Promise<void> {
  console.log(`\n${title}: ${rounds} alternated rounds of ${codesPerAlg} codes each`);
  const results = new Map<ExchangeKind, { perSecond: number; cpu: number }[]>([
    [first, []],
    [second, []],
  ]);
  for (let round = 1; round <= rounds; round++) {
    for (const kind of round % 2 ? [first, second] : [second, first]) {
      const codes: string[] = [];
      for (let i = 0; i < codesPerAlg; i++) codes.push(await kind.code());
      const exchanges = await Promise.all(codes.map((c) => kind.exchange(c)));
      const r = await measure(service.base, exchanges, service.child.pid);
      results.get(kind)!.push({ perSecond: Number(r.perSecond), cpu: Number(r.cpuPerExchange) });
      console.log(
        `round ${round} ${kind.name.padEnd(15)} ${r.perSecond} exchanges/s, p50 ${r.p50} ms, p99 ${r.p99} ms, server CPU ${r.cpuPerExchange} ms per exchange`,
      );
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const [a, b] = [first, second].map((kind) => ({
    perSecond: median(results.get(kind)!.map((r) => r.perSecond)),
    cpu: median(results.get(kind)!.map((r) => r.cpu)),
  }));
  console.log(
    `median: ${first.name} ${a!.perSecond}/s (${a!.cpu} ms CPU), ${second.name} ${b!.perSecond}/s (${b!.cpu} ms CPU): ` +
      `throughput ${((b!.perSecond / a!.perSecond) * 100).toFixed(1)}% of ${first.name}, CPU ${((b!.cpu / a!.cpu) * 100).toFixed(1)}% of ${first.name}`,
  );
}

/** Plain against verified_claims on one RS256 merchant. */
async function compareVerifiedClaims(service: RunningService): Promise<void> {
  const m = await service.createMerchant({ name: 'bench verified_claims', redirect_uris: [redirectUri] });
  await alternated(service, 'RS256 with verified_claims requested beside the plain exchange', [
    { name: 'plain', code: () => code(service.base, m.client_id), exchange: (c) => basicExchange(m, c) },
    { name: 'verified_claims', code: () => code(service.base, m.client_id, VERIFIED_CLAIMS), exchange: (c) => basicExchange(m, c) },
  ]);
}

/**
 * A FAPI 2.0 merchant (PAR, private_key_jwt ES256, DPoP) beside a plain one (client_secret_basic), both with ES256 ID
 * tokens (the profile's algorithm), so that the difference is the profile's: the client assertion and the DPoP proof
 * checked, the token bound.
 */
async function compareFapi(service: RunningService): Promise<void> {
  const plain = await service.createMerchant({ name: 'bench plain ES256', redirect_uris: [redirectUri], id_token_signed_response_alg: 'ES256' });
  const fapi = await createFapiMerchant(service);
  await alternated(service, 'ES256: a FAPI 2.0 merchant (PAR, private_key_jwt, DPoP) beside a plain one (client_secret_basic)', [
    { name: 'plain', code: () => code(service.base, plain.client_id), exchange: (c) => basicExchange(plain, c) },
    { name: 'fapi2', code: () => fapiCode(service.base, fapi), exchange: (c) => fapiExchange(service.base, fapi, c) },
  ]);
}
