/** Starts the bare-engine anchor (anchor-server.ts) as its own process and measures it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ANCHOR_CLIENTS, ANCHOR_REDIRECT_URI } from './anchor-clients.js';
import { anchorCodeFlow, codes, exchange, rate, requestsPerLogin, type Rate } from './flows.js';
import { withDatabase } from './service.js';

/** Where the anchor keeps the engine's models (anchor-stores.ts). */
export type AnchorStore = 'memory' | 'postgres' | 'redis' | 'split';

export interface AnchorFigures {
  exchanges: Record<'RS256' | 'ES256', Rate>;
  logins: Rate;
  requestsPerLogin: number;
}

/** `nodeArgs`: more node options for the anchor's process (a measuring hook); `env`: its store (ANCHOR_STORE…). */
export async function startAnchor(nodeArgs: string[] = [], env: Record<string, string> = {}): Promise<{ base: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, 'scripts/bench/anchor-server.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`anchor exited with ${code}`)));
  });
  const { port } = JSON.parse(line) as { port: number };
  return { base: `http://127.0.0.1:${port}`, child };
}

export interface AnchorOptions {
  codesPerAlg: number;
  logins: number;
  concurrency: number;
  /** Logins made first and not counted (default 50), as for the service. */
  warmup?: number;
  /** memory (default); postgres in a fresh database of BENCH_DATABASE_SERVER; redis at `redisUrl`; split: both. */
  store?: AnchorStore;
  redisUrl?: string;
}

export async function measureAnchor(opts: AnchorOptions): Promise<AnchorFigures> {
  const store = opts.store ?? 'memory';
  if (store === 'postgres') return withDatabase((url) => measureAnchorOn(opts, { ANCHOR_STORE: store, ANCHOR_DATABASE_URL: url }));
  const redisUrl = opts.redisUrl ?? 'redis://127.0.0.1:6379';
  if (store === 'split') return withDatabase((url) => measureAnchorOn(opts, { ANCHOR_STORE: store, ANCHOR_DATABASE_URL: url, ANCHOR_REDIS_URL: redisUrl }));
  if (store === 'redis') return measureAnchorOn(opts, { ANCHOR_STORE: store, ANCHOR_REDIS_URL: redisUrl });
  return measureAnchorOn(opts, { ANCHOR_STORE: store });
}

async function measureAnchorOn(opts: AnchorOptions, env: Record<string, string>): Promise<AnchorFigures> {
  const { base, child } = await startAnchor([], env);
  try {
    const flow = anchorCodeFlow(base, ANCHOR_REDIRECT_URI);
    const [rs, es] = ANCHOR_CLIENTS;
    const pids = [child.pid];
    await rate(opts.warmup ?? 50, opts.concurrency, pids, async () => exchange(`${base}/token`, rs, await flow(rs), ANCHOR_REDIRECT_URI));
    const exchanges = {} as AnchorFigures['exchanges'];
    for (const [alg, client] of [
      ['RS256', rs],
      ['ES256', es],
    ] as const) {
      const list = await codes(flow, client, opts.codesPerAlg);
      exchanges[alg] = await rate(list.length, opts.concurrency, pids, (i) => exchange(`${base}/token`, client, list[i], ANCHOR_REDIRECT_URI));
    }
    const logins = await rate(opts.logins, opts.concurrency, pids, async () => exchange(`${base}/token`, rs, await flow(rs), ANCHOR_REDIRECT_URI));
    return { exchanges, logins, requestsPerLogin: await requestsPerLogin(flow, rs) };
  } finally {
    // Waited for, so a database of its own is dropped only once the anchor let go of it.
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}
