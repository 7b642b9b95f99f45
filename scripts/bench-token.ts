/**
 * Code exchange throughput and latency on PostgreSQL, for RS256 and ES256 merchants.
 * Starts the built service (`npm run bench:token` builds first) on a fresh database, obtains codes
 * through the test eID, then times POST /oidc/token with a few concurrent clients.
 *
 * Then the same exchange with `verified_claims` requested (OpenID Connect for Identity Assurance, in the ID token) beside
 * the plain one, in alternated rounds on one service (plain first in odd rounds, verified_claims first in even ones), so
 * that warm-up and drift fall on both alike.
 *
 *   BENCH_DATABASE_SERVER=postgresql://postgres@127.0.0.1:5432/postgres  (default)
 *   BENCH_CODES=400 BENCH_CONCURRENCY=8 BENCH_ROUNDS=3
 */
import { createHash, randomBytes } from 'node:crypto';
import { TestBrowser } from '../test/support/test-browser.js';
import { cpuMs, percentiles, startService, withDatabase } from './bench/service.js';

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

async function measure(base: string, m: { client_id: string; client_secret: string }, codes: string[], pid: number | undefined) {
  const auth = `Basic ${Buffer.from(`${m.client_id}:${m.client_secret}`).toString('base64')}`;
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const cpuBefore = cpuMs(pid);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < codes.length) {
        const c = codes[next++];
        const t0 = performance.now();
        const res = await fetch(`${base}/oidc/token`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'authorization_code', code: c, redirect_uri: redirectUri, code_verifier: verifier }),
        });
        await res.text();
        if (res.status !== 200) throw new Error(`exchange failed: ${res.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuPerExchange = ((cpuMs(pid) - cpuBefore) / codes.length).toFixed(2);
  return { perSecond: (codes.length / seconds).toFixed(0), cpuPerExchange, ...percentiles(latencies) };
}

await withDatabase(async (databaseUrl) => {
  const service = await startService(databaseUrl);
  try {
    console.log(`code exchange on PostgreSQL: ${codesPerAlg} codes per algorithm, ${concurrency} concurrent clients`);
    for (const alg of ['RS256', 'ES256']) {
      const m = await service.createMerchant({ name: `bench ${alg}`, redirect_uris: [redirectUri], id_token_signed_response_alg: alg });
      const codes: string[] = [];
      for (let i = 0; i < codesPerAlg; i++) codes.push(await code(service.base, m.client_id));
      const r = await measure(service.base, m, codes, service.child.pid);
      console.log(`${alg}: ${r.perSecond} exchanges/s, p50 ${r.p50} ms, p99 ${r.p99} ms, server CPU ${r.cpuPerExchange} ms per exchange`);
    }
    await compareVerifiedClaims(service);
  } finally {
    service.child.kill();
  }
});

/** Plain against verified_claims on one RS256 merchant, alternated; each line one batch, then the medians and their ratio. */
async function compareVerifiedClaims(service: Awaited<ReturnType<typeof startService>>): Promise<void> {
  console.log(`\nRS256 with verified_claims requested beside the plain exchange: ${rounds} alternated rounds of ${codesPerAlg} codes each`);
  const m = await service.createMerchant({ name: 'bench verified_claims', redirect_uris: [redirectUri] });
  const results: Record<'plain' | 'verified_claims', { perSecond: number; p50: number; cpu: number }[]> = { plain: [], verified_claims: [] };
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 ? (['plain', 'verified_claims'] as const) : (['verified_claims', 'plain'] as const);
    for (const kind of order) {
      const codes: string[] = [];
      for (let i = 0; i < codesPerAlg; i++) codes.push(await code(service.base, m.client_id, kind === 'plain' ? undefined : VERIFIED_CLAIMS));
      const r = await measure(service.base, m, codes, service.child.pid);
      results[kind].push({ perSecond: Number(r.perSecond), p50: Number(r.p50), cpu: Number(r.cpuPerExchange) });
      console.log(
        `round ${round} ${kind.padEnd(15)} ${r.perSecond} exchanges/s, p50 ${r.p50} ms, p99 ${r.p99} ms, server CPU ${r.cpuPerExchange} ms per exchange`,
      );
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const plain = { perSecond: median(results.plain.map((r) => r.perSecond)), cpu: median(results.plain.map((r) => r.cpu)) };
  const verified = { perSecond: median(results.verified_claims.map((r) => r.perSecond)), cpu: median(results.verified_claims.map((r) => r.cpu)) };
  console.log(
    `median: plain ${plain.perSecond}/s (${plain.cpu} ms CPU), verified_claims ${verified.perSecond}/s (${verified.cpu} ms CPU): ` +
      `throughput ${((verified.perSecond / plain.perSecond) * 100).toFixed(1)}% of plain, CPU ${((verified.cpu / plain.cpu) * 100).toFixed(1)}% of plain`,
  );
}
