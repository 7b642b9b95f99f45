import { ReadinessService } from '../../src/ops/health/readiness.service.js';
import { GracefulShutdown } from '../../src/ops/shutdown/graceful-shutdown.service.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const PING_TIMEOUT_MS = 500;

/**
 * The embedded database has one connection: a flow that holds it and never lets go (the defect the transaction
 * guard now refuses) leaves every query of the instance waiting. The probes must say so within their bound, and a
 * SIGTERM must still end the process within its grace time.
 */
describe('an instance whose database does not answer', () => {
  /** Takes the embedded database's one connection until `release` is called. */
  const holdTheConnection = async (t: TestApp) => {
    let release!: () => void;
    let taken!: () => void;
    const isTaken = new Promise<void>((resolve) => (taken = resolve));
    const held = t.dataSource.transaction(async (tx) => {
      await tx.query('SELECT 1');
      taken();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await isTaken;
    return { release: async () => (release(), await held) };
  };
  const timed = async (url: string, init?: RequestInit) => {
    const started = Date.now();
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, ms: Date.now() - started };
  };

  describe('probes', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ embedded: true, env: { DATABASE_PING_TIMEOUT_MS: String(PING_TIMEOUT_MS) } });
      await t.app.get(ReadinessService).warmUp();
    }, 120_000);
    afterAll(() => t?.close(), 60_000);

    it('turns /health/ready and /health red within the bound, stays live, and green again once the database answers', async () => {
      expect(await timed(`${t.baseUrl}/health/ready`)).toMatchObject({ status: 200, body: { checks: { database: 'ok' } } });
      const stuck = await holdTheConnection(t);
      try {
        const ready = await timed(`${t.baseUrl}/health/ready`);
        expect(ready).toMatchObject({ status: 503, body: { status: 'not_ready', checks: { database: 'failed' } } });
        expect(ready.ms).toBeLessThan(PING_TIMEOUT_MS + 3_000);
        // Probes do not pile up queries behind the stuck one: each waits on the ping already in flight.
        for (let i = 0; i < 3; i++)
          expect(await timed(`${t.baseUrl}/health`)).toMatchObject({ status: 503, body: { status: 'unavailable', database: 'down' } });
        expect((await timed(`${t.baseUrl}/health/live`)).status).toBe(200);
      } finally {
        await stuck.release();
      }
      expect(await timed(`${t.baseUrl}/health/ready`)).toMatchObject({ status: 200, body: { status: 'ready', checks: { database: 'ok' } } });
      expect(await timed(`${t.baseUrl}/health`)).toMatchObject({ status: 200, body: { database: 'up' } });
    }, 60_000);
  });

  it('ends a shutdown within its grace time while a request hangs on the database', async () => {
    const t = await startTestApp({ embedded: true, env: { SHUTDOWN_GRACE_SECONDS: '3' } });
    const stuck = await holdTheConnection(t);
    try {
      // An admin read: it waits for the connection the held transaction has.
      const hanging = fetch(`${t.baseUrl}/admin/v1/merchants`, { headers: { authorization: `Bearer ${t.adminToken}` } }).then(
        (res) => res.status,
        () => 'cut',
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = Date.now();
      const summary = await t.app.get(GracefulShutdown).shutdown(t.app, 'SIGTERM');
      const took = Date.now() - started;
      expect(summary).toMatchObject({ requests_cut: 1, closed: false });
      expect(took).toBeLessThan(3_000 + 500);
      expect(await hanging).toBe('cut');
    } finally {
      await stuck.release().catch(() => undefined);
    }
  }, 60_000);
});
