/**
 * Code exchange throughput and latency on PostgreSQL, for RS256 and ES256 merchants.
 * Starts the built service (npm run build first; `npm run bench:token` does both) on a fresh database,
 * obtains codes through the test eID, then times POST /oidc/token with a few concurrent clients.
 *
 *   BENCH_DATABASE_SERVER=postgresql://postgres@127.0.0.1:5432/postgres  (default)
 *   BENCH_CODES=400 BENCH_CONCURRENCY=8
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { TestBrowser } from '../test/support/test-browser.js';

const server = process.env.BENCH_DATABASE_SERVER ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const codesPerAlg = Number(process.env.BENCH_CODES ?? 400);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const redirectUri = 'http://localhost:8080/callback';
const adminToken = randomBytes(24).toString('base64url');
const verifier = randomBytes(32).toString('base64url');
const challenge = (await import('node:crypto')).createHash('sha256').update(verifier).digest('base64url');

async function withDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const name = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  try {
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

async function startService(databaseUrl: string) {
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    env: { ...process.env, PORT: String(port), BASE_URL: base, DATABASE_URL: databaseUrl, ADMIN_API_TOKEN: adminToken, LOG_LEVEL: 'warn', DATA_DIR: `/tmp/bench-${port}` },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error('service did not start');
}

async function merchant(alg: string) {
  const res = await fetch(`${base}/admin/v1/merchants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `bench ${alg}`, redirect_uris: [redirectUri], id_token_signed_response_alg: alg }),
  });
  return (await res.json()) as { client_id: string; client_secret: string };
}

async function code(clientId: string): Promise<string> {
  const browser = new TestBrowser(base);
  const query = new URLSearchParams({ client_id: clientId, response_type: 'code', scope: 'openid profile', redirect_uri: redirectUri, state: 's', code_challenge: challenge, code_challenge_method: 'S256' });
  let page = await browser.follow(await browser.get(`${base}/its/index.html?${query}`));
  page = await browser.follow(await browser.submit(page, 'person', 'uto-passport'));
  return new URL(page.location!).searchParams.get('code')!;
}

async function measure(m: { client_id: string; client_secret: string }, codes: string[]) {
  const auth = `Basic ${Buffer.from(`${m.client_id}:${m.client_secret}`).toString('base64')}`;
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
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
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);
  return { perSecond: (codes.length / seconds).toFixed(0), p50: pct(50), p99: pct(99) };
}

await withDatabase(async (databaseUrl) => {
  const child = await startService(databaseUrl);
  try {
    console.log(`code exchange on PostgreSQL: ${codesPerAlg} codes per algorithm, ${concurrency} concurrent clients`);
    for (const alg of ['RS256', 'ES256']) {
      const m = await merchant(alg);
      const codes: string[] = [];
      for (let i = 0; i < codesPerAlg; i++) codes.push(await code(m.client_id));
      const r = await measure(m, codes);
      console.log(`${alg}: ${r.perSecond} exchanges/s, p50 ${r.p50} ms, p99 ${r.p99} ms`);
    }
  } finally {
    child.kill();
  }
});
