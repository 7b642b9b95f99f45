import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/bootstrap/create-app.js';
import { loadConfig, type AppConfig } from '../../src/config/load-config.js';
import { createTestDatabase } from './test-database.js';

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  baseUrl: string;
  adminToken: string;
  dataSource: DataSource;
  initialAdminToken?: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Run on the embedded database even when DATABASE_URL is set. */
  embedded?: boolean;
  env?: Record<string, string | undefined>;
}

/** Starts the real service on a free port, on a fresh database, with generated secrets. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase(options.embedded);
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
    ADMIN_API_TOKEN: adminToken,
    LOG_LEVEL: 'silent',
    ...options.env,
  };
  const config = loadConfig(env);
  if (!database.url) (config as { database: AppConfig['database'] }).database = { kind: 'embedded', dir: 'memory://' };
  const { app, initialAdminToken } = await createApp(config);
  await app.listen(port, '127.0.0.1');
  const baseUrl = config.baseUrl;
  return {
    app,
    config,
    baseUrl,
    adminToken: options.env && 'ADMIN_API_TOKEN' in options.env ? (options.env.ADMIN_API_TOKEN ?? '') : adminToken,
    dataSource: app.get(DataSource),
    initialAdminToken,
    close: async () => {
      await app.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The issuer URL must be known before the app is built, so the port is chosen first. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
