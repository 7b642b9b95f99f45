/**
 * Server CPU per request of one login and code exchange, the service beside the bare-engine anchor: logins run one
 * at a time (so each request's CPU is its own) and a hook in each server (bench/request-cpu-hook.mjs) sums the CPU
 * per request type. Shows where the service spends more than the bare engine, request by request.
 *
 *   npm run profile:requests      BENCH_LOGINS=300 (after 50 to warm up)   PostgreSQL as in the other benchmarks
 */
import { ANCHOR_CLIENTS, ANCHOR_REDIRECT_URI } from './bench/anchor-clients.js';
import { startAnchor } from './bench/anchor.js';
import { anchorCodeFlow, brokerCodeFlow, exchange, type Client, type CodeFlow } from './bench/flows.js';
import { startService, withDatabase } from './bench/service.js';

const logins = Number(process.env.BENCH_LOGINS ?? 300);
const hook = ['--import', new URL('./bench/request-cpu-hook.mjs', import.meta.url).pathname];
const redirectUri = 'http://localhost:8080/callback';

async function measure(base: string, tokenUrl: string, flow: CodeFlow, client: Client, uri: string): Promise<[string, number][]> {
  for (let i = 0; i < 50; i++) await exchange(tokenUrl, client, await flow(client), uri);
  await fetch(`${base}/__request-cpu/on`);
  for (let i = 0; i < logins; i++) await exchange(tokenUrl, client, await flow(client), uri);
  const rows = (await (await fetch(`${base}/__request-cpu/off`)).json()) as [string, { count: number; cpuMs: number }][];
  return rows.map(([key, row]) => [key, row.cpuMs / row.count]);
}

function print(title: string, rows: [string, number][]): void {
  console.log(`\n${title}`);
  for (const [key, ms] of rows) console.log(`  ${ms.toFixed(2).padStart(6)} ms  ${key}`);
  console.log(`  ${rows.reduce((sum, [, ms]) => sum + ms, 0).toFixed(2).padStart(6)} ms  in all, per login and exchange`);
}

console.log(`server CPU per request, ${logins} logins one at a time (RS256 ID tokens)`);
await withDatabase(async (url) => {
  const service = await startService(url, { nodeArgs: hook });
  try {
    const merchant = await service.createMerchant({ name: 'profile', redirect_uris: [redirectUri] });
    print('the service (PostgreSQL, through the test eID)', await measure(service.base, `${service.base}/oidc/token`, brokerCodeFlow(service.base, redirectUri), merchant, redirectUri));
  } finally {
    service.child.kill('SIGKILL');
  }
});
const anchor = await startAnchor(hook);
try {
  print('the bare engine (anchor, in memory)', await measure(anchor.base, `${anchor.base}/token`, anchorCodeFlow(anchor.base, ANCHOR_REDIRECT_URI), ANCHOR_CLIENTS[0], ANCHOR_REDIRECT_URI));
} finally {
  anchor.child.kill();
}
