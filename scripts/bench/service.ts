/** Shared by the benchmarks: a fresh PostgreSQL database and the built service started on it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '../service-node-flags.js';

export const serverUrl = process.env.BENCH_DATABASE_SERVER ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export async function withDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const name = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

export interface RunningService {
  base: string;
  adminToken: string;
  child: ChildProcess;
  createMerchant(fields: Record<string, unknown>): Promise<{ client_id: string; client_secret: string }>;
}

/** Starts dist/src/main.js (run `npm run build` first) and waits for /health. */
export async function startService(databaseUrl: string, options: { nodeArgs?: string[]; env?: Record<string, string> } = {}): Promise<RunningService> {
  const port = 3900 + Math.floor(Math.random() * 90);
  const base = `http://127.0.0.1:${port}`;
  const adminToken = randomBytes(24).toString('base64url');
  // Its own data directory (the development secrets it generates), removed once it or the benchmark has exited.
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-service-'));
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...(options.nodeArgs ?? []), 'dist/src/main.js'], {
    // RATE_LIMITS off unless asked: a benchmark sends every login from one address (README, Operations).
    env: {
      RATE_LIMITS: 'off',
      ...SERVICE_ENV,
      ...process.env,
      ...options.env,
      PORT: String(port),
      BASE_URL: base,
      DATABASE_URL: databaseUrl,
      ADMIN_API_TOKEN: adminToken,
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  child.once('exit', removeDataDir);
  process.once('exit', removeDataDir);
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) {
        return {
          base,
          adminToken,
          child,
          createMerchant: async (fields) => {
            const res = await fetch(`${base}/admin/v1/merchants`, {
              method: 'POST',
              headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
              body: JSON.stringify(fields),
            });
            return (await res.json()) as { client_id: string; client_secret: string };
          },
        };
      }
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error('service did not start');
}

export function percentiles(values: number[]): { p50: string; p95: string; p99: string; median: string } {
  const sorted = [...values].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1);
  return { p50: pct(50), p95: pct(95), p99: pct(99), median: pct(50) };
}

/** Resident memory of a process, in MiB, from /proc (Linux): now (VmRSS) or its peak so far (VmHWM). */
export function rssMiB(pid: number | undefined, which: 'VmRSS' | 'VmHWM' = 'VmRSS'): string {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(new RegExp(`${which}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
    return (kb / 1024).toFixed(0);
  } catch {
    return 'n/a';
  }
}

/**
 * CPU time (user + system) a process has used so far, in ms, from /proc (Linux; clock ticks of 10 ms).
 * Server CPU per request is steadier than requests per second when the load client shares the machine.
 */
export function cpuMs(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
