import { ConfigError } from '../config/app-config.js';
import { loadOpsConfig } from '../config/ops-config.js';
import { memoryRateLimitStore } from './rate-limit/rate-limit-store.js';

describe('operations configuration', () => {
  it('has defaults: limits on, no metrics anywhere, 25 s of grace, a 2 s database ping, bounded slow clients', () => {
    expect(loadOpsConfig({})).toEqual({
      metrics: { token: undefined, port: undefined },
      shutdownGraceSeconds: 25,
      databasePingTimeoutMs: 2000,
      http: { headersTimeoutSeconds: 10, requestTimeoutSeconds: 60, keepAliveTimeoutSeconds: 65 },
      perClient: { unfinishedBodies: 50, longPolls: 100 },
      rateLimits: {
        enabled: true,
        windowSeconds: 60,
        limits: { authorization: 600, app_api: 600, token: 1200, ciba: 600, face: 30 },
        redisPrefix: 'broker:ratelimit:',
      },
    });
  });

  it('names every bad variable', () => {
    let error: unknown;
    try {
      loadOpsConfig({
        METRICS_TOKEN: 'short',
        METRICS_PORT: '70000',
        RATE_LIMITS: 'maybe',
        RATE_LIMIT_TOKEN: '-1',
        SHUTDOWN_GRACE_SECONDS: '0',
        DATABASE_PING_TIMEOUT_MS: '10',
        HTTP_REQUEST_TIMEOUT_SECONDS: '0',
        HTTP_HEADERS_TIMEOUT_SECONDS: 'x',
        HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '601',
        HTTP_UNFINISHED_BODIES_PER_CLIENT: '-1',
        LONG_POLLS_PER_CLIENT: 'many',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => p.split(':')[0]).sort()).toEqual(
      [
        'METRICS_PORT',
        'METRICS_TOKEN',
        'RATE_LIMITS',
        'RATE_LIMIT_TOKEN',
        'SHUTDOWN_GRACE_SECONDS',
        'DATABASE_PING_TIMEOUT_MS',
        'HTTP_REQUEST_TIMEOUT_SECONDS',
        'HTTP_HEADERS_TIMEOUT_SECONDS',
        'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS',
        'HTTP_UNFINISHED_BODIES_PER_CLIENT',
        'LONG_POLLS_PER_CLIENT',
      ].sort(),
    );
  });

  it('reads the bounds per client address, 0 switching one off', () => {
    expect(loadOpsConfig({ HTTP_UNFINISHED_BODIES_PER_CLIENT: '8', LONG_POLLS_PER_CLIENT: '0' }).perClient).toEqual({ unfinishedBodies: 8, longPolls: 0 });
  });

  it('reads on/off, true/false and limits of 0 (that limit off)', () => {
    expect(loadOpsConfig({ RATE_LIMITS: 'off', RATE_LIMIT_FACE: '0' }).rateLimits).toMatchObject({ enabled: false, limits: { face: 0 } });
    expect(loadOpsConfig({ RATE_LIMITS: 'true' }).rateLimits.enabled).toBe(true);
  });
});

describe('in-process rate limit windows', () => {
  it('counts per key within a window and starts again after it', async () => {
    const store = memoryRateLimitStore(60);
    expect(await store.hit('a')).toMatchObject({ count: 1 });
    expect(await store.hit('a')).toMatchObject({ count: 2 });
    expect(await store.hit('b')).toMatchObject({ count: 1 });
    const { resetInMs } = await store.hit('a');
    expect(resetInMs).toBeGreaterThan(0);
    expect(resetInMs).toBeLessThanOrEqual(60);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await store.hit('a')).toMatchObject({ count: 1 });
  });
});
