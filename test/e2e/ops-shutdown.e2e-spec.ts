import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GracefulShutdown } from '../../src/ops/shutdown/graceful-shutdown.service.js';
import { createTestDatabase } from '../support/test-database.js';
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
  let child: ChildProcess;
  let stdout = '';
  let dataDir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let base: string;
  let ops: string;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'broker-drain-'));
    const [port, metricsPort] = [await freePort(), await freePort()];
    base = `http://127.0.0.1:${port}`;
    ops = `http://127.0.0.1:${metricsPort}`;
    // SWC as in Jest (tsx does not emit the decorator metadata Nest injects by): the sources as they are, no build.
    child = spawn(process.execPath, ['--import', './test/support/swc-register.mjs', 'src/main.ts'], {
      env: {
        PATH: process.env.PATH,
        APP_ENV: 'customer-test',
        PORT: String(port),
        BASE_URL: base,
        DATA_DIR: dataDir,
        ...(database.url && { DATABASE_URL: database.url }),
        ADMIN_API_TOKEN: randomBytes(24).toString('base64url'),
        LOG_LEVEL: 'info',
        METRICS_PORT: String(metricsPort),
        SHUTDOWN_GRACE_SECONDS: '20',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr!.resume();
    exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    await until('the service to answer', async () => ((await fetch(`${base}/health`)).ok ? true : undefined), 90_000);
  }, 120_000);

  afterAll(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('drains: readiness 503, no new connection, the request in flight completes, one log line, exit 0', async () => {
    // Ready once the face models are warm (main.ts warms them after the port opens).
    await until('readiness', async () => ((await fetch(`${ops}/health/ready`)).status === 200 ? true : undefined), 90_000);

    // A slow client: the headers and half of the body now, the rest after SIGTERM.
    const body = JSON.stringify({ qr_token: 'a'.repeat(43) });
    const answered = new Promise<{ res: IncomingMessage; text: string }>((resolve, reject) => {
      const req = request(`${base}/app/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => resolve({ res, text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        results.logBefore = stdout.length;
        child.kill('SIGTERM');
        void until('draining', async () => {
          const ready = await fetch(`${ops}/health/ready`);
          return ready.status === 503 && ((await ready.json()) as { status: string }).status === 'draining' ? true : undefined;
        }, 10_000).then(async () => {
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

    expect(await exited).toEqual({ code: 0, signal: null });
    const logged = stdout.slice(results.logBefore).split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { level: number; msg: string });
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
    const t = await startTestApp({ env: { SHUTDOWN_GRACE_SECONDS: '1' } });
    try {
      // A client that never finishes its body.
      const cut = new Promise<string>((resolve) => {
        const req = request(`${t.baseUrl}/app/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': 100 } }, () => resolve('answered'));
        req.on('error', (e: Error & { code?: string }) => resolve(e.code ?? e.message));
        req.write('{"qr_token"');
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = Date.now();
      const summary = await t.app.get(GracefulShutdown).shutdown(t.app, 'SIGTERM');
      expect(summary).toMatchObject({ signal: 'SIGTERM', requests_cut: 1, face_work_cut: 0, closed: true });
      // The drain waits for the request until the part of the grace time kept for closing (a fifth of it).
      expect(Date.now() - started).toBeGreaterThanOrEqual(800);
      expect(Date.now() - started).toBeLessThan(1000 + 500);
      expect(await cut).toBe('ECONNRESET');
    } finally {
      await t.close();
    }
  }, 60_000);
});
