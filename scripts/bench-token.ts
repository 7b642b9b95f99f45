/**
 * Code exchange throughput and latency on PostgreSQL, for RS256 and ES256 merchants.
 * Starts the built service (`npm run bench:token` builds first) on a fresh database, obtains codes
 * through the test eID, then times POST /oidc/token with a few concurrent clients.
 *
 *   BENCH_DATABASE_SERVER=postgresql://postgres@127.0.0.1:5432/postgres  (default)
 *   BENCH_CODES=400 BENCH_CONCURRENCY=8
 */
import { createHash, randomBytes } from 'node:crypto';
import { TestBrowser } from '../test/support/test-browser.js';
import { cpuMs, percentiles, startService, withDatabase } from './bench/service.js';

const codesPerAlg = Number(process.env.BENCH_CODES ?? 400);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const redirectUri = 'http://localhost:8080/callback';
const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');

async function code(base: string, clientId: string): Promise<string> {
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
  } finally {
    service.child.kill();
  }
});
