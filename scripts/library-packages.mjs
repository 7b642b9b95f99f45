/**
 * The libraries as packages of the built service (dist/): apart from the transpile, so that `nest start` can run it
 * alone (scripts/nest-start-preload.mjs) without loading SWC.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Maps a package.json `exports` value (a path or an object of them) from the TypeScript sources to their build. */
const compiledExports = (value) =>
  typeof value === 'string' ? value.replace(/\.ts$/, '.js') : Object.fromEntries(Object.entries(value).map(([key, target]) => [key, compiledExports(target)]));

/**
 * The libraries as packages inside dist/, so that the built service imports them by name like the sources do: each
 * libs/<name>/package.json is written to dist/libs/<name>/ with its exports pointing at the compiled .js, and
 * dist/node_modules/<package name> links to that folder. Node looks in dist/node_modules before the repository's
 * node_modules (whose workspace links lead to the TypeScript sources, for tsc, jest and tsx), and so does the image,
 * which keeps only dist/. Both builds end here: this transpile and `npm run build` (tsc, then `start.mjs --stamp`).
 */
export function packageLibraries(root) {
  const libs = join(root, 'libs');
  if (!existsSync(libs)) return;
  for (const name of readdirSync(libs)) {
    const manifestPath = join(libs, name, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    const target = join(root, 'dist', 'libs', name);
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'package.json'), `${JSON.stringify({ ...manifest, exports: compiledExports(manifest.exports) }, null, 2)}\n`);
    const link = join(root, 'dist', 'node_modules', ...manifest.name.split('/'));
    mkdirSync(dirname(link), { recursive: true });
    rmSync(link, { recursive: true, force: true });
    symlinkSync(relative(dirname(link), target), link, 'dir');
  }
}
