import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const repo = new URL('..', import.meta.url).pathname;
const transpiler = pathToFileURL(join(repo, 'scripts', 'transpile.mjs')).href;
const reflectMetadata = pathToFileURL(createRequire(join(repo, 'package.json')).resolve('reflect-metadata')).href;

/** Runs an ES module snippet in a fresh Node process; its stdout, or the error it printed. */
function runModule(code: string): string {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

/** The build `npm start` makes (scripts/transpile.mjs): SWC, tsc's layout, what Nest's injection needs. */
describe('the start build (SWC, no type-check)', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'transpile-'));
    mkdirSync(join(root, 'src', 'deep'), { recursive: true });
    mkdirSync(join(root, 'libs', 'x', 'test'), { recursive: true });
    writeFileSync(join(root, 'src', 'deep', 'dependency.ts'), 'export class Dependency { readonly name: string = "dep"; }\n');
    writeFileSync(
      join(root, 'src', 'service.ts'),
      [
        "import { Dependency } from './deep/dependency.js';",
        'function Injectable(): ClassDecorator { return () => undefined; }',
        '@Injectable()',
        'export class Service { constructor(readonly dependency: Dependency) {} }',
        '',
      ].join('\n'),
    );
    writeFileSync(join(root, 'src', 'service.spec.ts'), 'throw new Error("a spec is not built");\n');
    writeFileSync(join(root, 'libs', 'x', 'test', 'helper.ts'), 'export const helper = 1;\n');
    writeFileSync(join(root, 'libs', 'x', 'index.ts'), 'export const lib: number = 2;\n');
    writeFileSync(join(root, 'libs', 'x', 'package.json'), JSON.stringify({ name: '@t/x', type: 'module', exports: { '.': './index.ts' } }));
    writeFileSync(join(root, 'src', 'uses-library.ts'), "import { lib } from '@t/x';\nexport const doubled: number = lib * 2;\n");
    const count = runModule(`const { transpile } = await import(${JSON.stringify(transpiler)}); console.log(await transpile(${JSON.stringify(root)}));`);
    expect(count).toBe('4');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("writes tsc's layout with source maps, and leaves out specs and test folders", () => {
    for (const file of ['src/service.js', 'src/service.js.map', 'src/deep/dependency.js', 'libs/x/index.js'])
      expect([file, existsSync(join(root, 'dist', file))]).toEqual([file, true]);
    for (const file of ['src/service.spec.js', 'libs/x/test/helper.js']) expect([file, existsSync(join(root, 'dist', file))]).toEqual([file, false]);
  });

  it('packages each library in dist, so the built code imports it by name and gets the compiled .js', () => {
    expect(JSON.parse(readFileSync(join(root, 'dist', 'libs', 'x', 'package.json'), 'utf8')).exports).toEqual({ '.': './index.js' });
    const user = pathToFileURL(join(root, 'dist', 'src', 'uses-library.js')).href;
    expect(runModule(`const { doubled } = await import(${JSON.stringify(user)}); console.log(doubled);`)).toBe('4');
  });

  it('emits the constructor parameter types that Nest injects by', () => {
    const service = pathToFileURL(join(root, 'dist', 'src', 'service.js')).href;
    const out = runModule(
      `await import(${JSON.stringify(reflectMetadata)}); const { Service } = await import(${JSON.stringify(service)});` +
        ` console.log(Reflect.getMetadata('design:paramtypes', Service).map((t) => t.name).join(','));`,
    );
    expect(out).toBe('Dependency');
  });
});
