import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/bootstrap/create-app.js';
import type { AppConfig } from '../../src/config/load-config.js';
import { loadServiceConfig } from '../../src/bootstrap/scheme-manifests.js';
import { REDIS, type RedisHandle } from '../../src/redis/redis.module.js';
import { createTestDatabase } from './test-database.js';
import { freePort } from './free-port.js';
import { type MarkPhase, withinStartBound } from './start-bound.js';

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  baseUrl: string;
  adminToken: string;
  dataSource: DataSource;
  initialAdminToken?: string;
  /** The environment the app was configured from (a second instance can be started with the same). */
  env: Record<string, string | undefined>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Run on the embedded database even when DATABASE_URL is set. */
  embedded?: boolean;
  env?: Record<string, string | undefined>;
  /**
   * Start a second instance of the service on the first one's database and secrets (PostgreSQL only:
   * an embedded database lives inside one process). Closing it leaves the database to the first.
   */
  sameDatabaseAs?: TestApp;
  /** A PostgreSQL server of the test's own (a private one it may restart) instead of DATABASE_URL's. */
  databaseServerUrl?: string;
  /** Modules of the test's own, beside the service's (e.g. a stand-in provider of an extension point). */
  modules?: Parameters<typeof createApp>[2];
}

/** Whether two instances can share a database here (they can on PostgreSQL, i.e. with DATABASE_URL). */
export const canShareDatabase = (): boolean => Boolean(process.env.DATABASE_URL);

/**
 * The environment of a production instance a test can start: production refuses to start without its secrets, a
 * CSCA to trust and a real database (the embedded one allowed here); an https BASE_URL behind no proxy; no credential issuer.
 */
export function productionTestEnv(): Record<string, string> {
  return {
    APP_ENV: 'production',
    BASE_URL: 'https://broker.example',
    SUBJECT_SECRET: randomBytes(32).toString('base64url'),
    PAIRWISE_SECRET: randomBytes(32).toString('base64url'),
    TRUST_CSCA_PATHS: resolve('test/fixtures/icao/real-documents/csca/CSCA_DE.cer'),
    ALLOW_EMBEDDED_DATABASE: 'true',
  };
}

/** Starts the real service on a free port, on a fresh database, with generated secrets. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  return withinStartBound((mark) => start(options, mark));
}

async function start(options: TestAppOptions, mark: MarkPhase): Promise<TestApp> {
  mark('database');
  const first = options.sameDatabaseAs;
  if (first && !first.env.DATABASE_URL) throw new Error('two instances need PostgreSQL (DATABASE_URL)');
  const database = first ? { url: first.env.DATABASE_URL, drop: async () => undefined } : await createTestDatabase(options.embedded, options.databaseServerUrl);
  const dataDir = mkdtempSync(join(tmpdir(), 'broker-test-'));
  const adminToken = randomBytes(24).toString('base64url');
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    APP_ENV: 'customer-test',
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    COOKIE_KEYS: randomBytes(32).toString('base64url'),
    // In the environment, not generated into DATA_DIR: a second instance (sameDatabaseAs) shares them.
    SUBJECT_SECRET: randomBytes(32).toString('base64url'),
    PAIRWISE_SECRET: randomBytes(32).toString('base64url'),
    ADMIN_API_TOKEN: adminToken,
    LOG_LEVEL: 'silent',
    // The suite sends thousands of requests from one address (the fuzz): limits are tested on their own (test/e2e/ops-rate-limits).
    RATE_LIMITS: 'off',
    // TEST_REDIS_URL: the engine's short-lived state in that Redis, under a prefix of this app's own.
    ...(process.env.TEST_REDIS_URL && { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_KEY_PREFIX: `test-${randomBytes(6).toString('hex')}:` }),
    ...(first && { ...first.env, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir }),
    ...options.env,
  };
  const config = loadServiceConfig(env);
  if (!database.url) (config as { database: AppConfig['database'] }).database = { kind: 'embedded', dir: 'memory://' };
  mark('application (modules, migrations, Nest)');
  const { app, initialAdminToken } = await createApp(config, undefined, options.modules);
  mark('listening');
  await app.listen(port, '127.0.0.1');
  mark('Redis');
  await redisConnected(app);
  const baseUrl = config.baseUrl;
  return {
    app,
    config,
    baseUrl,
    adminToken: env.ADMIN_API_TOKEN ?? '',
    dataSource: app.get(DataSource),
    initialAdminToken,
    env,
    close: async () => {
      if (!first) await removeTestKeys(app, env.REDIS_KEY_PREFIX);
      await app.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The service's Redis connection refuses commands until connected (no offline queue): a test starts after. */
async function redisConnected(app: INestApplication): Promise<void> {
  const redis = app.get<symbol, RedisHandle>(REDIS, { strict: false });
  if (!redis || redis.status === 'ready') return;
  // A test of an unreachable Redis starts anyway (its connection errors are what it tests): wait a bounded time.
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, 3_000);
    redis.once('ready', done);
  });
}

/** A test's keys in a shared Redis (prefixes `test-…`), left otherwise until their long expiry. */
async function removeTestKeys(app: INestApplication, prefix: string | undefined): Promise<void> {
  const redis = app.get<symbol, RedisHandle>(REDIS, { strict: false });
  if (!redis || !prefix?.startsWith('test-') || redis.status !== 'ready') return;
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
}
