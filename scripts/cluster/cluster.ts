/**
 * N instances of the built service (dist/src/main.js) on one fresh PostgreSQL database (and one Redis when
 * REDIS_URL is given), each on its own port, behind nginx. Used by `npm run cluster` and `npm run bench:cluster`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ensureNginx, nginxConfig, startNginx } from './nginx.js';
import { freePort } from '../../test/support/free-port.js';
import { SERVICE_NODE_FLAGS } from '../service-node-flags.js';

export interface ClusterOptions {
  instances: number;
  /** The proxy's port on 127.0.0.1 (default: a free one). */
  port?: number;
  /** A PostgreSQL server URL: a fresh database is created on it and dropped when the cluster stops. */
  databaseServer: string;
  redisUrl?: string;
  logLevel?: string;
  /** Extra environment of every instance (and `node` flags, e.g. --cpu-prof, per instance index). */
  env?: Record<string, string>;
  nodeArgs?: (index: number) => string[];
  log?: (line: string) => void;
  /** One instance only, with no nginx: it listens on `port` itself and BASE_URL is its own (benchmarks). */
  withoutProxy?: boolean;
}

export interface Instance {
  index: number;
  port: number;
  child: ChildProcess;
}

export interface Cluster {
  proxyUrl: string;
  adminToken: string;
  database: string;
  instances: Instance[];
  stop(): Promise<void>;
}

/** Brings dist up to date (no build when it is current: scripts/start.mjs compares the sources). */
export function buildOnce(): void {
  const build = spawnSync(process.execPath, ['scripts/start.mjs', '--build'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build failed');
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`instance exited with ${child.exitCode} before answering`);
    if (
      await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no answer from ${url} within ${timeoutMs / 1000} s`);
}

function stopChild(child: ChildProcess, timeoutMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  if (options.withoutProxy && options.instances !== 1) throw new Error('withoutProxy is for one instance');
  const nginx = options.withoutProxy ? undefined : ensureNginx(log);
  const dir = mkdtempSync(join(tmpdir(), 'broker-cluster-'));
  const database = `broker_cluster_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: options.databaseServer });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const databaseUrl = new URL(options.databaseServer);
  databaseUrl.pathname = `/${database}`;

  const proxyPort = options.port ?? (await freePort());
  const proxyUrl = `http://127.0.0.1:${proxyPort}`;
  const adminToken = randomBytes(24).toString('base64url');
  // One set of secrets for all: every instance reads what another one sealed, signed or hashed.
  const shared: Record<string, string> = {
    APP_ENV: process.env.APP_ENV ?? 'customer-test',
    DATABASE_URL: databaseUrl.toString(),
    BASE_URL: proxyUrl,
    TRUST_PROXY: 'true',
    ADMIN_API_TOKEN: adminToken,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    COOKIE_KEYS: randomBytes(32).toString('base64url'),
    SUBJECT_SECRET: randomBytes(32).toString('base64url'),
    PAIRWISE_SECRET: randomBytes(32).toString('base64url'),
    LOG_LEVEL: options.logLevel ?? 'warn',
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
    ...options.env,
  };
  const instances: Instance[] = [];
  let proxy: ChildProcess | undefined;
  let stopped = false;

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (proxy) await stopChild(proxy, 5000);
    await Promise.all(instances.map((i) => stopChild(i.child)));
    const cleanup = new pg.Client({ connectionString: options.databaseServer });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await cleanup.end();
    rmSync(dir, { recursive: true, force: true });
  };

  const launch = async (index: number): Promise<Instance> => {
    const port = options.withoutProxy ? proxyPort : await freePort();
    const env = { ...process.env, ...shared, PORT: String(port), DATA_DIR: join(dir, `instance-${index}`) };
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...(options.nodeArgs?.(index) ?? []), 'dist/src/main.js'], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const instance = { index, port, child };
    instances.push(instance);
    await waitForHealth(`http://127.0.0.1:${port}`, child);
    return instance;
  };

  try {
    // The first instance runs the migrations on the new database; the others start once it is up.
    await launch(1);
    await Promise.all(Array.from({ length: options.instances - 1 }, (_, i) => launch(i + 2)));
    instances.sort((a, b) => a.index - b.index);
    if (nginx) {
      proxy = startNginx(
        nginx,
        dir,
        nginxConfig(
          dir,
          { host: '127.0.0.1', port: proxyPort },
          instances.map((i) => i.port),
        ),
      );
      await waitForHealth(proxyUrl, proxy, 10_000);
    }
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
  return { proxyUrl, adminToken, database, instances, stop };
}
