import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { describeWhen } from './when-available.js';

/**
 * The pieces the real-SP tests share: which Debian packages a peer needs (skip locally, fail under CI=true),
 * starting its processes in the foreground, waiting for their port, and the logs to print when a test fails.
 */

/** Packages of `packages` that dpkg does not report installed. */
export function missingPackages(packages: readonly string[]): string[] {
  return packages.filter((pkg) => !/^Status: install ok installed$/m.test(spawnSync('dpkg', ['-s', pkg], { encoding: 'utf8' }).stdout ?? ''));
}

/**
 * `describe` when the peer's packages are installed; otherwise skipped, or under CI=true one failing test
 * (a green CI must mean the real peer was run).
 */
export function describeWithPackages(packages: readonly string[], name: string, fn: () => void): void {
  const missing = missingPackages(packages);
  describeWhen(
    {
      available: missing.length === 0,
      missing: `${missing.join(', ')} not installed`,
      install: `apt-get install --no-install-recommends ${packages.join(' ')}`,
    },
    name,
    fn,
  );
}

export interface PeerProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** What it wrote on stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts a foreground process quietly; its output is kept for the failure report. */
export function startPeerProcess(name: string, command: string, args: string[], env: Record<string, string> = {}): PeerProcess {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  child.on('error', (e) => (out += `\n[${name} failed to start: ${e.message}]`));
  return {
    name,
    child,
    output: () => out,
    stop: () => stopProcess(child),
  };
}

/** SIGTERM, then SIGKILL after a grace period; resolves once the process is gone. */
function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Resolves when something accepts TCP connections on 127.0.0.1:port; rejects if `proc` exits first or after `ms`. */
export async function waitForPort(port: number, proc: PeerProcess, ms = 30_000, describeFailure = () => proc.output()): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null)
      throw new Error(`${proc.name} exited (${proc.child.exitCode ?? proc.child.signalCode}) before listening on ${port}:\n${describeFailure()}`);
    if (await accepts(port)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${proc.name} did not listen on ${port} within ${ms} ms:\n${describeFailure()}`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The tail of a log file, or a note that there is none (for failure reports). */
export function logTail(file: string, lines = 80): string {
  if (!existsSync(file)) return `(${file}: not written)`;
  return `--- ${file}\n${readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n')}`;
}
