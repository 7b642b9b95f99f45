import { ReadinessService } from '../../src/ops/health/readiness.service.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('/health/live and /health/ready', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close(), 60_000);

  const ready = async () => {
    const res = await fetch(`${t.baseUrl}/health/ready`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, cache: res.headers.get('cache-control') };
  };

  it('is live as soon as the process answers; the database check stays at /health', async () => {
    const live = await fetch(`${t.baseUrl}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${t.baseUrl}/health`)).status).toBe(200);
  });

  it('is not ready before the face models are warm, and names the check that is not yet true', async () => {
    expect(await ready()).toEqual({
      status: 503,
      cache: 'no-store',
      body: {
        status: 'not_ready',
        checks: { migrations: 'ok', database: 'ok', signing_keys: 'ok', face_models: 'pending', redis: t.env.REDIS_URL ? 'ok' : 'not_used', draining: false },
      },
    });
  });

  it('is ready once the face models are loaded', async () => {
    await t.app.get(ReadinessService).warmUp();
    expect(await ready()).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { migrations: 'ok', database: 'ok', signing_keys: 'ok', face_models: 'ok', draining: false } },
    });
  }, 120_000);

  it('answers 503 while draining, whatever the other checks say', async () => {
    t.app.get(ReadinessService).startDraining();
    expect(await ready()).toMatchObject({ status: 503, body: { status: 'draining', checks: { face_models: 'ok', draining: true } } });
    // Liveness is not readiness: a draining process is alive (no restart), it only takes no new traffic.
    expect((await fetch(`${t.baseUrl}/health/live`)).status).toBe(200);
  });
});
