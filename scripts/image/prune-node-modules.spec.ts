import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const script = new URL('prune-node-modules.mjs', import.meta.url).pathname;
const ELF_MACHINE = { x64: 62, arm64: 183 } as Record<string, number>;

/** A project folder: package.json naming `dependencies`/`devDependencies`, and the files under node_modules given. */
function project(files: Record<string, string | Buffer>, manifest: object = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'prune-node-modules-'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', ...manifest }));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, 'node_modules', file)), { recursive: true });
    writeFileSync(join(root, 'node_modules', file), content);
  }
  return root;
}

const pkg = (name: string) => JSON.stringify({ name, version: '1.0.0' });

/** An ELF header (64-bit, little-endian) for the given e_machine; the rest of the file does not matter here. */
function elf(machine: number): Buffer {
  const header = Buffer.alloc(64);
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]).copy(header);
  header.writeUInt16LE(machine, 18);
  return header;
}

function prune(root: string, list: string, ...options: string[]) {
  writeFileSync(join(root, 'prune-list.txt'), list);
  const run = spawnSync(process.execPath, [script, join(root, 'prune-list.txt'), '--root', root, ...options], { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

const exists = (root: string, file: string) => existsSync(join(root, 'node_modules', file));

describe('prune-node-modules (the image build stage, scripts/image/prune-list.txt)', () => {
  const roots: string[] = [];
  const make = (...args: Parameters<typeof project>) => {
    roots.push(project(...args));
    return roots.at(-1)!;
  };
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it('keeps only the listed files of a package (and its package.json and licence), and drops what a pattern matches', () => {
    const root = make({
      'tf/package.json': pkg('tf'),
      'tf/LICENSE': 'MIT',
      'tf/dist/tf.node.js': 'module.exports = 1;',
      'tf/dist/tf.min.js': 'browser',
      'tf/dist/tf.node.js.map': '{}',
      'tf/node_modules/cli-only/package.json': pkg('cli-only'),
      'ort/package.json': pkg('ort'),
      [`ort/bin/linux/${process.arch}/binding.node`]: elf(ELF_MACHINE[process.arch]),
      'ort/bin/darwin/x64/lib.dylib': 'mach-o',
      'other/package.json': pkg('other'),
      'other/index.js': '',
      'other/index.d.ts': '',
      'other/src/index.ts': '',
      'other/README.md': '',
      'other/LICENSE.md': 'MIT',
    });
    const list = ['# a comment', 'keep tf dist/tf.node.js  # the Node entry', 'keep ort', '  bin/linux/{arch}/*.node', 'drop **/*.ts **/*.md'].join('\n');
    expect(prune(root, list, '--no-tree-check')).toEqual({ status: 0, stderr: '' });
    for (const kept of [
      'tf/package.json',
      'tf/LICENSE',
      'tf/dist/tf.node.js',
      `ort/bin/linux/${process.arch}/binding.node`,
      'other/index.js',
      'other/LICENSE.md',
    ])
      expect([kept, exists(root, kept)]).toEqual([kept, true]);
    for (const gone of ['tf/dist/tf.min.js', 'tf/dist/tf.node.js.map', 'tf/node_modules', 'ort/bin/darwin', 'other/index.d.ts', 'other/src', 'other/README.md'])
      expect([gone, exists(root, gone)]).toEqual([gone, false]);
  });

  it('refuses a list that no longer fits: a kept file, a package or a dropped pattern that is not there', () => {
    const files = { 'tf/package.json': pkg('tf'), 'tf/dist/tf.node.js': '' };
    expect(prune(make(files), 'keep tf dist/tf.node.js dist/renamed.node.js', '--no-tree-check')).toEqual({
      status: 1,
      stderr: expect.stringContaining('line 1: tf has nothing matching dist/renamed.node.js'),
    });
    expect(prune(make(files), 'keep tf dist/tf.node.js\nkeep absent index.js', '--no-tree-check').stderr).toContain('line 2: no package absent');
    expect(prune(make(files), 'drop **/*.map', '--no-tree-check').stderr).toContain('line 1: nothing in');
    expect(prune(make(files), 'remove tf', '--no-tree-check').stderr).toContain("expected 'keep <package> <glob>...' or 'drop <glob>...'");
  });

  it('refuses native code for another platform left in node_modules', () => {
    const other = process.arch === 'arm64' ? ELF_MACHINE.x64 : ELF_MACHINE.arm64;
    const root = make({ 'a/package.json': pkg('a'), 'a/prebuilds/linux-other/a.node': elf(other), 'a/README.md': '' });
    const result = prune(root, 'drop **/*.md', '--no-tree-check');
    expect(result).toEqual({ status: 1, stderr: expect.stringContaining('native code for another platform') });
    expect(result.stderr).toContain('a/prebuilds/linux-other/a.node');
  });

  it('refuses a package that npm ls --omit=dev does not name (a devDependency left behind)', () => {
    const manifest = { dependencies: { runtime: '1.0.0' }, devDependencies: { devtool: '1.0.0' } };
    const root = make({ 'runtime/package.json': pkg('runtime'), 'runtime/README.md': '', 'devtool/package.json': pkg('devtool') }, manifest);
    const result = prune(root, 'drop **/*.md');
    expect(result).toEqual({ status: 1, stderr: expect.stringContaining('development-only or extraneous') });
    expect(result.stderr).toContain(join(root, 'node_modules', 'devtool'));
    expect(result.stderr).not.toContain(join(root, 'node_modules', 'runtime'));
  });
});
