/**
 * The build `npm start` makes when the sources changed: every TypeScript file that tsconfig.build.json compiles,
 * transpiled by SWC into dist/ as tsc lays it out (same paths, ES modules, decorator metadata for Nest's injection,
 * source maps), without type-checking. tsc takes 9-20 s here, SWC about 1 s; the types are checked by
 * `npm run typecheck`, `npm run build` (the production build, tsc) and CI. The tests run the same SWC transform
 * (test/support/swc-hooks.mjs), so the code that runs is the code that was tested.
 */
import { transformFile } from '@swc/core';
import { packageLibraries } from './library-packages.mjs';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** What tsconfig.build.json includes, less what it excludes (specs, test/). */
const INCLUDE = ['src', 'libs', 'scripts', 'ormconfig.ts'];
const isSource = (path) => path.endsWith('.ts') && !path.endsWith('.d.ts') && !path.endsWith('.spec.ts');

function sources(root) {
  const out = [];
  const walk = (path) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path)) if (name !== 'node_modules' && name !== 'test') walk(join(path, name));
    } else if (isSource(path)) out.push(path);
  };
  for (const entry of INCLUDE) walk(join(root, entry));
  return out;
}

/** SWC's settings for the service's TypeScript: also the tests' loader hook's (test/support/swc-hooks.mjs). */
export const SWC_OPTIONS = {
  sourceMaps: true,
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'es6' },
};

/** Transpiles the sources of `root` into `root/dist`; resolves to the number of files written. */
export async function transpile(root) {
  const files = sources(root);
  const dist = join(root, 'dist');
  // A few dozen at a time: SWC works on its own threads, and a thousand open files at once gain nothing.
  for (let i = 0; i < files.length; i += 64) {
    await Promise.all(
      files.slice(i, i + 64).map(async (file) => {
        const out = join(dist, relative(root, file)).replace(/\.ts$/, '.js');
        const { code, map } = await transformFile(file, { ...SWC_OPTIONS, filename: file, sourceFileName: relative(dirname(out), file), outputPath: out });
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, `${code}\n//# sourceMappingURL=${out.split('/').pop()}.map\n`);
        if (map) writeFileSync(`${out}.map`, map);
      }),
    );
  }
  packageLibraries(root);
  return files.length;
}
