/**
 * One instance under login load with `node --cpu-prof`: full logins through the test eID with 8 concurrent
 * clients on a fresh PostgreSQL database, then the top functions and modules by self time (start-up left out).
 * The profile is kept (its path is printed) for a closer look in Chrome DevTools.
 *
 *   BENCH_LOGINS=200 BENCH_CONCURRENCY=8
 *   BENCH_PROFILE=exchanges: only code exchanges are profiled (the codes are obtained first, left out)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brokerCodeFlow, codes, exchange, rate } from './bench/flows.js';
import { startService, withDatabase } from './bench/service.js';

const logins = Number(process.env.BENCH_LOGINS ?? 200);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const redirectUri = 'http://localhost:8080/callback';
const dir = mkdtempSync(join(tmpdir(), 'cpu-prof-'));
// Nest re-raises SIGTERM after its shutdown, which kills the process before V8 writes the profile: exit instead.
const exitOnTerm = `data:text/javascript,process.on('SIGTERM',()=>setTimeout(()=>process.exit(0),500))`;

await withDatabase(async (url) => {
  const spawnedAt = performance.now();
  const service = await startService(url, { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', exitOnTerm] });
  const exited = new Promise((r) => service.child.once('exit', r));
  try {
    const m = await service.createMerchant({ name: 'profile', redirect_uris: [redirectUri] });
    const flow = brokerCodeFlow(service.base, redirectUri);
    const tokenUrl = `${service.base}/oidc/token`;
    const onlyExchanges = process.env.BENCH_PROFILE === 'exchanges';
    const list = onlyExchanges ? await codes(flow, m, logins) : [];
    const loadFrom = performance.now() - spawnedAt;
    const r = await rate(logins, concurrency, [service.child.pid], async (i) => exchange(tokenUrl, m, onlyExchanges ? list[i] : await flow(m), redirectUri));
    console.log(`${logins} ${onlyExchanges ? 'code exchanges' : 'logins'} under --cpu-prof: ${r.perSecond.toFixed(1)}/s, server CPU ${r.cpuMs} ms each`);
    service.child.kill('SIGTERM');
    await exited;
    const file = join(
      dir,
      readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!,
    );
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/cpu-profile-top.ts', file, '15', String(Math.round(loadFrom))], { stdio: 'inherit' });
  } finally {
    service.child.kill('SIGKILL');
  }
});
