import { request, type IncomingMessage } from 'node:http';
import { GracefulShutdown } from '../../src/ops/shutdown/graceful-shutdown.service.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { startTestApp } from '../support/test-app.js';
import { freePort } from '../support/free-port.js';

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The service as `npm start` runs it (main.ts), with its own database, ports and log. */
describe('graceful shutdown of the running service (SIGTERM)', () => {
  let service: ServiceProcess;
  let base: string;
  let ops: string;

  beforeAll(async () => {
    const metricsPort = await freePort();
    ops = `http://127.0.0.1:${metricsPort}`;
    service = await startServiceProcess({ env: { LOG_LEVEL: 'info', METRICS_PORT: String(metricsPort), SHUTDOWN_GRACE_SECONDS: '20' } });
    base = service.baseUrl;
  }, 120_000);

  afterAll(() => service?.stop());

  it('drains: readiness 503, no new connection, the request in flight completes, one log line, exit 0', async () => {
    // Ready once the face models are warm (main.ts warms them after the port opens).
    await until('readiness', async () => ((await fetch(`${ops}/health/ready`)).status === 200 ? true : undefined), 90_000);

    // A slow client: the headers and half of the body now, the rest after SIGTERM.
    const body = JSON.stringify({ qr_token: 'a'.repeat(43) });
    const answered = new Promise<{ res: IncomingMessage; text: string }>((resolve, reject) => {
      const req = request(
        `${base}/app/v1/sessions`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString('utf8')));
          res.on('end', () => resolve({ res, text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        results.logBefore = service.stdout().length;
        service.child.kill('SIGTERM');
        void until(
          'draining',
          async () => {
            const ready = await fetch(`${ops}/health/ready`);
            return ready.status === 503 && ((await ready.json()) as { status: string }).status === 'draining' ? true : undefined;
          },
          10_000,
        ).then(async () => {
          const refused = await fetch(`${base}/health/live`).then(
            () => 'answered',
            (e: Error & { cause?: { code?: string } }) => e.cause?.code,
          );
          req.end(body.slice(10));
          results.refused = refused;
        }, reject);
      }, 500);
    });
    const results: { refused?: string; logBefore?: number } = {};

    const { res, text } = await answered;
    // The request reached the app API and got its answer (an unknown QR token), on a connection closed after it.
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(text)).toMatchObject({ error: expect.any(String) });
    expect(res.headers.connection).toBe('close');
    expect(results.refused).toBe('ECONNREFUSED');

    expect(await service.exited).toEqual({ code: 0, signal: null });
    const logged = service
      .stdout()
      .slice(results.logBefore)
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    // One line says the shutdown happened and how; nothing else complains on the way out.
    expect(logged.filter((l) => /shutdown/.test(l.msg))).toEqual([
      expect.objectContaining({ level: 30, msg: 'shutdown complete', signal: 'SIGTERM', requests_cut: 0, face_work_cut: 0 }),
    ]);
    expect(logged.filter((l) => l.level >= 40)).toEqual([]);
    // The metrics port closed with the rest.
    await expect(fetch(`${ops}/health/live`)).rejects.toThrow();
  }, 150_000);
});

describe('graceful shutdown when the grace time runs out', () => {
  it('cuts the request still in flight after SHUTDOWN_GRACE_SECONDS and reports it', async () => {
    // 5 s: the last fifth (1 s) is kept for closing the pools, which on a loaded machine took longer than 200 ms.
    const t = await startTestApp({ env: { SHUTDOWN_GRACE_SECONDS: '5' } });
    try {
      // A client that never finishes its body.
      const cut = new Promise<string>((resolve) => {
        const req = request(`${t.baseUrl}/app/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': 100 } }, () =>
          resolve('answered'),
        );
        req.on('error', (e: Error & { code?: string }) => resolve(e.code ?? e.message));
        req.write('{"qr_token"');
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = Date.now();
      const summary = await t.app.get(GracefulShutdown).shutdown(t.app, 'SIGTERM');
      expect(summary).toMatchObject({ signal: 'SIGTERM', requests_cut: 1, face_work_cut: 0, closed: true });
      // The drain waits for the request until the part of the grace time kept for closing (a fifth of it).
      expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
      // And the whole shutdown ends within the grace time (the closing is abandoned at its end if it has not ended).
      expect(Date.now() - started).toBeLessThan(5000 + 1000);
      expect(await cut).toBe('ECONNRESET');
    } finally {
      await t.close();
    }
  }, 60_000);
});
