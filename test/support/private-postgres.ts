import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/**
 * A PostgreSQL server of the test's own, on a free port, that the test may stop and restart without
 * touching the machine's shared server. PostgreSQL refuses to run as root, so the cluster belongs to the
 * `postgres` user when the tests run as root.
 */
export interface PrivatePostgres {
  /** A server URL (database `postgres`); createTestDatabase makes a fresh database on it. */
  url: string;
  restart(): void;
  stop(): void;
  start(): void;
  remove(): void;
}

export function postgresBinDir(): string | undefined {
  try {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    return versions.length ? join('/usr/lib/postgresql', versions[0], 'bin') : undefined;
  } catch {
    return undefined;
  }
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql');
  const dir = mkdtempSync(join(tmpdir(), 'private-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  const asOwner = (cmd: string, args: string[]) => {
    const [file, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args];
    execFileSync(file, argv, { stdio: 'ignore' });
  };
  asOwner('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`;
  const ctl = (action: string, extra: string[] = []) => asOwner('pg_ctl', ['-D', data, '-w', '-l', join(dir, 'log'), '-o', options, ...extra, action]);
  ctl('start');
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    // Fast mode: every connection is cut at once, as a crash or a failover would.
    restart: () => ctl('restart', ['-m', 'fast']),
    stop: () => ctl('stop', ['-m', 'fast']),
    start: () => ctl('start'),
    remove: () => {
      try {
        ctl('stop', ['-m', 'immediate']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
