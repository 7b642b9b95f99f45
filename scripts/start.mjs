/**
 * `npm start`: builds only when the compiled service is older than its sources, then runs it in this process.
 * The build's inputs (the folders and files tsconfig.build.json compiles, the TypeScript configuration and
 * package.json) are listed with their sizes and modification times; the build writes a hash of that list to
 * dist/.build-stamp, and a start whose list hashes the same skips the build. The build of a start transpiles with
 * SWC (transpile.mjs, about 1 s); `npm run build` is tsc, which also checks the types (9-20 s here).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
// npm runs scripts with node_modules/.bin first on PATH, where the `node` package puts the project's Node 24:
// the runtime comes with `npm ci`, whatever Node runs npm itself. Started some other way, say so once.
if (Number(process.versions.node.split('.')[0]) < 24)
  process.stderr.write(`Node ${process.versions.node} runs this; the service is built for Node 24 (npm start uses node_modules/.bin/node).\n`);
const STAMP = join(root, 'dist', '.build-stamp');
const INPUTS = ['src', 'libs', 'scripts', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

function list(path, out) {
  if (!existsSync(path)) return out;
  const s = statSync(path);
  if (s.isDirectory()) for (const name of readdirSync(path).sort()) list(join(path, name), out);
  else out.push(`${path.slice(root.length)}\t${s.size}\t${s.mtimeMs}`);
  return out;
}

function inputsHash() {
  const lines = INPUTS.flatMap((p) => list(join(root, p), []));
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

const hash = inputsHash();
// `npm run build` ends with `start.mjs --stamp`: whatever built dist, a start after it does not build again.
if (process.argv.includes('--stamp')) {
  // tsc wrote dist/libs/*/src; the libraries' package manifests and links are the build's last step.
  const { packageLibraries } = await import('./library-packages.mjs');
  packageLibraries(root);
  writeFileSync(STAMP, hash);
  process.exit(0);
}
const current = existsSync(join(root, 'dist', 'src', 'main.js')) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === hash;
if (!current && process.argv.includes('--build')) {
  // The cluster script's build (benchmarks, the several-instances test): tsc, types checked.
  process.stdout.write('Building (sources changed since the last build)...\n');
  const build = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
} else if (!current) {
  process.stdout.write('Building (sources changed since the last build; transpiled only, `npm run typecheck` checks the types)...\n');
  const { transpile } = await import('./transpile.mjs');
  await transpile(root);
  writeFileSync(STAMP, hash);
}
// `start.mjs --build`: only bring dist up to date (the cluster script, before it starts its instances).
if (process.argv.includes('--build')) process.exit(0);
// Node 22+: compiled modules are cached on disk, so a restart skips most of the compiling (of the service's code and
// its dependencies). Kept in the repository's .cache beside the database template (a clean clone starts without
// either; deleting .cache resets both), unless NODE_COMPILE_CACHE names another folder. Through the environment the
// face engine's worker threads use it too.
process.env.NODE_COMPILE_CACHE ||= join(root, '.cache', 'node-compile-cache');
module.enableCompileCache?.(process.env.NODE_COMPILE_CACHE);
await import(pathToFileURL(join(root, 'dist', 'src', 'main.js')).href);
