/**
 * The two load shapes of the hot-path benchmarks, for the service and for the bare-engine anchor alike:
 * code exchanges (codes obtained first, then POST /token with N concurrent clients) and full logins
 * (authorization request -> login page -> login -> consent -> redirect with the code -> code exchange).
 */
import { createHash, randomBytes } from 'node:crypto';
import { TestBrowser } from '../../test/support/test-browser.js';
import { cpuMs, percentiles } from './service.js';

export const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');

export interface Client {
  client_id: string;
  client_secret: string;
}

/** A merchant of the service under measurement, through its admin API, with ID tokens of `alg`. */
export async function createBenchMerchant(base: string, adminToken: string, alg: string, redirectUri: string): Promise<Client> {
  const res = await fetch(`${base}/admin/v1/merchants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `bench ${alg}`, redirect_uris: [redirectUri], id_token_signed_response_alg: alg }),
  });
  if (!res.ok) throw new Error(`merchant not created: ${res.status}`);
  return (await res.json()) as Client;
}

/** How a code is obtained from a given server (the broker through the test eID, or the anchor's minimal login). */
export type CodeFlow = (client: Client) => Promise<string>;

const authorizeQuery = (clientId: string, redirectUri: string, extra: Record<string, string> = {}) =>
  new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    scope: 'openid profile',
    redirect_uri: redirectUri,
    state: 's',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });

/** The broker: the authorization request straight to the test eID, whose form signs the test person in. */
export function brokerCodeFlow(base: string, redirectUri: string): CodeFlow {
  return async (client) => {
    const browser = new TestBrowser(base);
    let page = await browser.follow(await browser.get(`${base}/its/index.html?${authorizeQuery(client.client_id, redirectUri, { login_hint: 'eid:test' })}`));
    page = await browser.follow(await browser.submit(page, 'person', 'uto-passport'));
    const code = page.location ? new URL(page.location).searchParams.get('code') : null;
    if (!code) throw new Error(`no code (status ${page.status} at ${page.url})`);
    return code;
  };
}

/** The anchor: its login page, the login POST, its consent granted on the spot. */
export function anchorCodeFlow(base: string, redirectUri: string): CodeFlow {
  return async (client) => {
    const browser = new TestBrowser(base);
    let page = await browser.follow(await browser.get(`${base}/auth?${authorizeQuery(client.client_id, redirectUri)}`));
    page = await browser.follow(await browser.submit(page, 'person', 'test'));
    const code = page.location ? new URL(page.location).searchParams.get('code') : null;
    if (!code) throw new Error(`no code (status ${page.status} at ${page.url})`);
    return code;
  };
}

export async function exchange(tokenUrl: string, client: Client, code: string, redirectUri: string): Promise<void> {
  const res = await fetch(tokenUrl, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }),
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`exchange failed: ${res.status} ${body.slice(0, 200)}`);
}

export interface Rate {
  perSecond: number;
  p50: string;
  p99: string;
  /** Server CPU (user + system, all server processes given) per operation, ms. */
  cpuMs: string;
}

/** Runs `count` operations with `concurrency` workers; the rate, latencies and the servers' CPU per operation. */
export async function rate(count: number, concurrency: number, pids: (number | undefined)[], op: (i: number) => Promise<void>): Promise<Rate> {
  const latencies: number[] = [];
  let next = 0;
  const cpu = (): number => pids.reduce<number>((sum, pid) => sum + cpuMs(pid), 0);
  const cpuBefore = cpu();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        await op(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: count / seconds, ...percentiles(latencies), cpuMs: ((cpu() - cpuBefore) / count).toFixed(2) };
}

/** Codes obtained one after the other (not timed), for an exchange measurement. */
export async function codes(flow: CodeFlow, client: Client, count: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(await flow(client));
  return out;
}

/** How many HTTP requests one login makes (the shapes compared side by side). */
export async function requestsPerLogin(flow: CodeFlow, client: Client): Promise<number> {
  const original = globalThis.fetch;
  let n = 0;
  globalThis.fetch = ((...args: Parameters<typeof fetch>) => {
    n++;
    return original(...args);
  }) as typeof fetch;
  try {
    await flow(client);
  } finally {
    globalThis.fetch = original;
  }
  return n + 1; // and its code exchange
}
