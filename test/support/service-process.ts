import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase } from './test-database.js';
import { freePort } from './free-port.js';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '../../scripts/service-node-flags.js';

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  adminToken: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What the service printed on stdout so far (its log, LOG_LEVEL permitting). */
  stdout(): string;
  /** The process's resident memory, read from /proc (Linux). */
  rssBytes(): number;
  /** The CPU time of the process and all its threads so far, in milliseconds, read from /proc (Linux). */
  cpuMs(): number;
  /** A full garbage collection of the service's main thread (only with `collectableGarbage`), awaited. */
  collectGarbage(): Promise<void>;
  /** SIGKILL if still running; the database and data directory removed. */
  stop(): Promise<void>;
}

export interface ServiceProcessOptions {
  env?: Record<string, string>;
  /** Start with --expose-gc and the SIGUSR2 hook of gc-on-signal.mjs, for tests that read its memory. */
  collectableGarbage?: boolean;
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux's supported architectures). */
const USER_HZ = 100;

/**
 * The service as `npm start` runs it (src/main.ts from its sources, through SWC as in jest), in a child process with
 * its own database, data directory and port, configured as startTestApp configures the in-process one. For tests that
 * signal or kill a real instance, or read its memory and CPU apart from the test's own (a test client's garbage in
 * the same process would be counted as the service's).
 */
export async function startServiceProcess(options: ServiceProcessOptions = {}): Promise<ServiceProcess> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'broker-process-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const adminToken = randomBytes(24).toString('base64url');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    APP_ENV: 'customer-test',
    PORT: String(port),
    BASE_URL: baseUrl,
    DATA_DIR: dataDir,
    ...(database.url && { DATABASE_URL: database.url }),
    ADMIN_API_TOKEN: adminToken,
    LOG_LEVEL: 'silent',
    RATE_LIMITS: 'off',
    ...SERVICE_ENV,
    ...options.env,
  };
  const gcArgs = options.collectableGarbage ? ['--expose-gc', '--import', './test/support/gc-on-signal.mjs'] : [];
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...gcArgs, '--import', './test/support/swc-register.mjs', 'src/main.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 90_000;
  while (
    !(await fetch(`${baseUrl}/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the service did not start:\n${stderr.slice(-4000)}`);
    }
    await sleep(200);
  }

  const proc = (file: string) => readFileSync(`/proc/${child.pid}/${file}`, 'utf8');
  return {
    child,
    baseUrl,
    adminToken,
    exited,
    stdout: () => stdout,
    rssBytes: () => Number(/^VmRSS:\s+(\d+) kB$/m.exec(proc('status'))![1]) * 1024,
    cpuMs: () => {
      // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const stat = proc('stat');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
    },
    collectGarbage: async () => {
      const seen = stderr.split('gc-on-signal: collected').length;
      child.kill('SIGUSR2');
      while (stderr.split('gc-on-signal: collected').length === seen) {
        if (child.exitCode !== null) throw new Error(`the service exited:\n${stderr.slice(-4000)}`);
        await sleep(20);
      }
    },
    stop,
  };
}
