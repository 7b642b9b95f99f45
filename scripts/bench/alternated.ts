/**
 * One instance of the service and the bare-engine anchor on the same store, both running, measured in alternated
 * chunks (ours, the anchor's, ours...; who goes first swaps each round): a machine whose speed drifts over minutes
 * (a shared host, PostgreSQL's own work) then slows both alike, where measuring one after the other put the drift
 * into the ratio (±20 % run to run). The idle side costs nothing meanwhile.
 */
import { ANCHOR_CLIENTS, ANCHOR_REDIRECT_URI } from './anchor-clients.js';
import { startAnchor, type AnchorStore } from './anchor.js';
import { anchorCodeFlow, brokerCodeFlow, codes, createBenchMerchant, exchange, rate, type Client, type CodeFlow, type Rate } from './flows.js';
import { withDatabase } from './service.js';
import { startCluster } from '../cluster/cluster.js';

export interface Side {
  logins: Rate;
  RS256: Rate;
  ES256: Rate;
}

export interface AlternatedOptions {
  store: Exclude<AnchorStore, 'memory' | 'redis'>;
  databaseServer: string;
  redisUrl?: string;
  logins: number;
  codesPerAlg: number;
  concurrency: number;
  warmup: number;
  rounds: number;
}

interface Target {
  flow: CodeFlow;
  tokenUrl: string;
  clients: Record<'RS256' | 'ES256', Client>;
  redirectUri: string;
  pids: (number | undefined)[];
}

/** Sums chunks of one shape into one rate: operations over the time they took, CPU weighted by count (chunks' latency
 * percentiles do not combine into percentiles, so none is given). */
function combine(chunks: { count: number; rate: Rate }[]): Rate {
  const count = chunks.reduce((n, c) => n + c.count, 0);
  const seconds = chunks.reduce((s, c) => s + c.count / c.rate.perSecond, 0);
  const cpuMs = (chunks.reduce((s, c) => s + c.count * Number(c.rate.cpuMs), 0) / count).toFixed(2);
  return { perSecond: count / seconds, p50: '-', p99: '-', cpuMs };
}

export async function measureAlternated(opts: AlternatedOptions): Promise<{ ours: Side; anchor: Side }> {
  const redirectUri = 'http://localhost:8080/callback';
  const cluster = await startCluster({
    instances: 1,
    withoutProxy: true,
    databaseServer: opts.databaseServer,
    redisUrl: opts.store === 'split' ? opts.redisUrl : undefined,
    env: { AUTHORIZATION_CODE_TTL_SECONDS: '600', RATE_LIMITS: 'off' },
    log: (line) => console.error(line),
  });
  try {
    return await withDatabase(async (anchorDatabase) => {
      const anchorEnv: Record<string, string> = { ANCHOR_STORE: opts.store, ANCHOR_DATABASE_URL: anchorDatabase };
      if (opts.store === 'split') anchorEnv.ANCHOR_REDIS_URL = opts.redisUrl ?? 'redis://127.0.0.1:6379';
      // BENCH_ANCHOR_CLAIMS=spec: the engine's ID token with the spec's claims, as ours (anchor-server.ts).
      if (process.env.BENCH_ANCHOR_CLAIMS) anchorEnv.ANCHOR_CLAIMS = process.env.BENCH_ANCHOR_CLAIMS;
      // BENCH_ANCHOR_CONFIG=spec: the engine configured as the service configures it (anchor-spec-config.ts).
      if (process.env.BENCH_ANCHOR_CONFIG) anchorEnv.ANCHOR_CONFIG = process.env.BENCH_ANCHOR_CONFIG;
      const anchor = await startAnchor([], anchorEnv);
      try {
        const ours: Target = {
          flow: brokerCodeFlow(cluster.proxyUrl, redirectUri),
          tokenUrl: `${cluster.proxyUrl}/oidc/token`,
          clients: {
            RS256: await createBenchMerchant(cluster.proxyUrl, cluster.adminToken, 'RS256', redirectUri),
            ES256: await createBenchMerchant(cluster.proxyUrl, cluster.adminToken, 'ES256', redirectUri),
          },
          redirectUri,
          pids: [cluster.instances[0].child.pid],
        };
        const bare: Target = {
          flow: anchorCodeFlow(anchor.base, ANCHOR_REDIRECT_URI),
          tokenUrl: `${anchor.base}/token`,
          clients: { RS256: ANCHOR_CLIENTS[0], ES256: ANCHOR_CLIENTS[1] },
          redirectUri: ANCHOR_REDIRECT_URI,
          pids: [anchor.child.pid],
        };
        const login = (t: Target) => async () => exchange(t.tokenUrl, t.clients.RS256, await t.flow(t.clients.RS256), t.redirectUri);
        for (const t of [ours, bare]) await rate(opts.warmup, opts.concurrency, t.pids, login(t));

        const chunks = { ours: { logins: [], RS256: [], ES256: [] }, anchor: { logins: [], RS256: [], ES256: [] } } as Record<
          'ours' | 'anchor',
          Record<keyof Side, { count: number; rate: Rate }[]>
        >;
        const perRound = (total: number) => Math.max(1, Math.round(total / opts.rounds));
        for (let round = 0; round < opts.rounds; round++) {
          const order = round % 2 === 0 ? (['ours', 'anchor'] as const) : (['anchor', 'ours'] as const);
          for (const who of order) {
            const t = who === 'ours' ? ours : bare;
            const n = perRound(opts.logins);
            chunks[who].logins.push({ count: n, rate: await rate(n, opts.concurrency, t.pids, login(t)) });
          }
          for (const alg of ['RS256', 'ES256'] as const) {
            // The codes are obtained first (not timed) for both sides, then exchanged in turn.
            const n = perRound(opts.codesPerAlg);
            const lists = { ours: await codes(ours.flow, ours.clients[alg], n), anchor: await codes(bare.flow, bare.clients[alg], n) };
            for (const who of order) {
              const t = who === 'ours' ? ours : bare;
              const list = lists[who];
              chunks[who][alg].push({
                count: n,
                rate: await rate(n, opts.concurrency, t.pids, (i) => exchange(t.tokenUrl, t.clients[alg], list[i], t.redirectUri)),
              });
            }
          }
        }
        const side = (c: Record<keyof Side, { count: number; rate: Rate }[]>): Side => ({
          logins: combine(c.logins),
          RS256: combine(c.RS256),
          ES256: combine(c.ES256),
        });
        return { ours: side(chunks.ours), anchor: side(chunks.anchor) };
      } finally {
        const exited = new Promise((resolve) => anchor.child.once('exit', resolve));
        anchor.child.kill('SIGTERM');
        await exited;
      }
    });
  } finally {
    await cluster.stop();
  }
}
