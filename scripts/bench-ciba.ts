/**
 * CIBA on PostgreSQL: backchannel requests accepted per second, and the latency from an approval to the
 * ping or push callback's arrival at a merchant's listener (median, p99). Starts the built service
 * (`npm run bench:ciba` builds first) on a fresh database; approvals go through the customer-test page (the
 * test eID), one at a time, so each latency is the service's own: the approval's transaction, the outbox
 * worker, and (push) building and signing the token response.
 *
 *   BENCH_DATABASE_SERVER=postgresql://postgres@127.0.0.1:5432/postgres  (default)
 *   BENCH_CIBA_REQUESTS=300 BENCH_CONCURRENCY=8 BENCH_CIBA_APPROVALS=40
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpuMs, percentiles, startService, withDatabase } from './bench/service.js';

const requests = Number(process.env.BENCH_CIBA_REQUESTS ?? 300);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const approvals = Number(process.env.BENCH_CIBA_APPROVALS ?? 40);
const basic = (m: { client_id: string; client_secret: string }) => `Basic ${Buffer.from(`${m.client_id}:${m.client_secret}`).toString('base64')}`;
const provisioning = (appId: string) => JSON.stringify({ requestType: 'Provisioning', appId, bindingMessage: 'bench' });

/** The merchant's callback endpoint: resolves the waiter of each auth_req_id when its callback arrives. */
async function listener() {
  const waiters = new Map<string, () => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.statusCode = 204;
      res.end();
      const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { auth_req_id: string }).auth_req_id;
      waiters.get(id)?.();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`,
    arrival: (id: string) => new Promise<number>((resolve) => waiters.set(id, () => resolve(performance.now()))),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A provisioning request: its auth_req_id and the one-time code the merchant would show its user. */
async function initiate(
  base: string,
  m: { client_id: string; client_secret: string },
  appId: string,
  token?: string,
): Promise<{ authReqId: string; code: string }> {
  const res = await fetch(`${base}/oidc/ciba.html`, {
    method: 'POST',
    headers: { authorization: basic(m), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      scope: 'openid profile',
      login_hint: appId,
      binding_message: provisioning(appId),
      ...(token ? { client_notification_token: token } : {}),
    }),
  });
  const body = (await res.json()) as { auth_req_id?: string; provisioning_code?: string };
  if (res.status !== 200 || !body.auth_req_id || !body.provisioning_code) throw new Error(`request refused: ${res.status} ${JSON.stringify(body)}`);
  return { authReqId: body.auth_req_id, code: body.provisioning_code };
}

/** Approves the app's one open request on the test page (looked up with its code); answers when the approval was sent. */
async function approve(base: string, appId: string, code: string): Promise<number> {
  const page = await fetch(`${base}/ciba/test`);
  const cookie = page.headers.get('set-cookie')!.split(';')[0];
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1];
  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    redirect: 'manual' as const,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, app_id: appId, provisioning_code: code, ...fields }),
  });
  const html = await (await fetch(`${base}/ciba/test`, form({}))).text();
  const id = /data-request="([^"]+)"/.exec(html)![1];
  const t0 = performance.now();
  const res = await fetch(`${base}/ciba/test/requests/${id}`, form({ person: 'uto-passport', action: 'approve' }));
  if (res.status !== 303) throw new Error(`approval failed: ${res.status}`);
  return t0;
}

await withDatabase(async (databaseUrl) => {
  const service = await startService(databaseUrl);
  const callbacks = await listener();
  try {
    const poll = await service.createMerchant({ name: 'bench poll', redirect_uris: ['https://bench.example/cb'], scope: 'openid profile' });
    let next = 0;
    const cpuBefore = cpuMs(service.child.pid);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < requests) await initiate(service.base, poll, `bench-app-${next++}`);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(`CIBA on PostgreSQL: ${requests} backchannel requests, ${concurrency} concurrent merchants' calls`);
    console.log(
      `accepted: ${(requests / seconds).toFixed(0)} requests/s, server CPU ${((cpuMs(service.child.pid) - cpuBefore) / requests).toFixed(2)} ms per request`,
    );

    for (const mode of ['ping', 'push'] as const) {
      const m = await service.createMerchant({
        name: `bench ${mode}`,
        redirect_uris: ['https://bench.example/cb'],
        scope: 'openid profile',
        backchannel_token_delivery_mode: mode,
        backchannel_client_notification_endpoint: callbacks.url,
      });
      const latencies: number[] = [];
      for (let i = 0; i < approvals; i++) {
        const appId = `bench-${mode}-${i}`;
        const { authReqId, code } = await initiate(service.base, m, appId, `notify-${i}`);
        const arrived = callbacks.arrival(authReqId);
        const t0 = await approve(service.base, appId, code);
        latencies.push((await arrived) - t0);
      }
      const p = percentiles(latencies);
      console.log(`${mode}: approval -> callback received, ${approvals} approvals one at a time: median ${p.median} ms, p99 ${p.p99} ms`);
    }
  } finally {
    await callbacks.close();
    service.child.kill();
  }
});
