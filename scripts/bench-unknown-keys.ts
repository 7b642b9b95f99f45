/**
 * Server CPU of one request whose JSON body holds many unknown keys, and how long /health/live waits meanwhile:
 * the built service runs in its own process, its CPU read from /proc before and after each request.
 *
 *   npm run bench:unknown-keys      BENCH_KEYS=150000   BENCH_ROUTES=/app/v1/sessions,/admin/v1/tokens (POSTs)
 *
 * /app/v1/session/chip takes 8 MiB bodies: there the bound on entries answers, not the size limit (without a
 * session token, since the bound comes before authentication).
 */
import { readFileSync } from 'node:fs';
import { startService, withDatabase } from './bench/service.js';

const keys = Number(process.env.BENCH_KEYS ?? 150_000);
const routes = (
  process.env.BENCH_ROUTES ?? '/app/v1/sessions,/app/v1/ciba/requests/pending,/app/v1/specimen-documents,/admin/v1/tokens,/app/v1/session/chip'
).split(',');
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** User and system CPU of a process so far, in milliseconds (fields 14 and 15 of /proc/<pid>/stat). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

const body = JSON.stringify(Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, 1])));
console.log(`one POST of ${keys} unknown keys (${(body.length / 1e6).toFixed(1)} MB), the service in its own process`);
await withDatabase(async (url) => {
  const service = await startService(url);
  try {
    for (const path of routes) {
      const before = cpuMs(service.child.pid!);
      const started = performance.now();
      let done = false;
      let slowestHealth = 0;
      const probing = (async () => {
        while (!done) {
          const asked = performance.now();
          await fetch(`${service.base}/health/live`).then((r) => r.arrayBuffer());
          slowestHealth = Math.max(slowestHealth, performance.now() - asked);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const res = await fetch(`${service.base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${service.adminToken}` },
        body,
      });
      const answer = await res.text();
      const elapsed = performance.now() - started;
      done = true;
      await probing;
      const cpu = cpuMs(service.child.pid!) - before;
      console.log(
        `  ${path}: ${res.status}, ${answer.length} bytes answered in ${elapsed.toFixed(0)} ms; server CPU ${cpu.toFixed(0)} ms; slowest /health/live ${slowestHealth.toFixed(0)} ms`,
      );
    }
  } finally {
    service.child.kill('SIGKILL');
  }
});
