// Counts where the tests stand (docs/development.md#where-tests-live): `node scripts/count-tests.mjs [root] [--list]`
// (root: another checkout, e.g. one `git archive <commit>` unpacked, to count it before a change).
//
// - spec files: every *.spec.ts and *.e2e-spec.ts under src/, libs/ and test/;
// - of them, those that start the whole app: they call startTestApp, createApp, startServiceProcess
//   (test/support/test-app.ts, service-process.ts) or NestFactory.create*(AppModule), themselves or through a helper
//   of test/support that does (a Nest context of a few providers, made to test how they find each other, is not the
//   whole app);
// - logic files: the .ts files under src/ and libs/*/src that are not specs and not one of these: index.ts,
//   *.module.ts, *.entity.ts, *.dto.ts or a file under dto/, a migration (migrations/), a declaration (*.d.ts), or a
//   file of types only (no function, class, const, let, var or enum at its top level);
// - of them, those with a spec of the same name beside them (<name>.spec.ts in the same folder), and those with a
//   spec of the same name anywhere (the count before specs moved beside their files).
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

const root = resolve(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? join(import.meta.dirname, '..'));
const SKIP = new Set(['node_modules', 'dist', '.cache', 'data', 'fixtures', 'calibration']);

function walk(dir, found = []) {
  if (!existsSync(dir)) return found;
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, found);
    else if (name.endsWith('.ts') || name.endsWith('.mjs')) found.push(path);
  }
  return found;
}

const files = ['src', 'libs', 'test'].flatMap((dir) => walk(join(root, dir)));
const isSpec = (path) => /\.(e2e-)?spec\.ts$/.test(path);
const specs = files.filter(isSpec);

const STARTS_APP = /\b(startTestApp|createApp|startServiceProcess)\s*\(|\bNestFactory\.create\w*\(\s*AppModule\b/;
const relativeImports = (path) =>
  [...readFileSync(path, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) =>
    resolve(dirname(path), match[1]).replace(/\.js$/, '.ts'),
  );
// The helpers that start the app: those that call one of the starters, and those that import such a helper.
const helpers = files.filter((path) => path.startsWith(join(root, 'test', 'support')) && !isSpec(path));
const starters = new Set(helpers.filter((path) => STARTS_APP.test(readFileSync(path, 'utf8')) && !/test-app\.ts$|service-process\.ts$/.test(path)));
starters.add(join(root, 'test/support/test-app.ts')).add(join(root, 'test/support/service-process.ts'));
for (let grew = true; grew;) {
  grew = false;
  for (const path of helpers) {
    if (!starters.has(path) && relativeImports(path).some((target) => starters.has(target))) grew = starters.add(path) && true;
  }
}
const startsApp = specs.filter((path) => STARTS_APP.test(readFileSync(path, 'utf8')) || relativeImports(path).some((target) => starters.has(target)));

const TOP_LEVEL_CODE = /^(export\s+)?(default\s+)?(declare\s+)?(abstract\s+)?(async\s+)?(function|class|const|let|var|enum)\b/m;
const isLogic = (path) => {
  const name = basename(path);
  if (isSpec(path) || !name.endsWith('.ts') || name.endsWith('.d.ts') || name === 'index.ts') return false;
  if (/\.(module|entity|dto)\.ts$/.test(name) || /\/(dto|migrations)\//.test(path)) return false;
  return TOP_LEVEL_CODE.test(readFileSync(path, 'utf8'));
};
const logic = files.filter((path) => (path.startsWith(join(root, 'src') + '/') || /\/libs\/[^/]+\/src\//.test(path)) && isLogic(path));
const specNames = new Set(specs.map((path) => basename(path).replace(/\.(e2e-)?spec\.ts$/, '')));
const besideSpec = logic.filter((path) => existsSync(path.replace(/\.ts$/, '.spec.ts')));
const namedSpec = logic.filter((path) => specNames.has(basename(path, '.ts')));

console.log(`spec files: ${specs.length}`);
console.log(`  that start the whole app: ${startsApp.length}`);
console.log(`  under test/: ${specs.filter((path) => path.startsWith(join(root, 'test') + '/')).length}`);
console.log(`logic files under src/ and libs/*/src: ${logic.length}`);
console.log(`  with <name>.spec.ts beside them: ${besideSpec.length}`);
console.log(`  with a spec of the same name anywhere: ${namedSpec.length}`);
if (process.argv.includes('--list')) for (const path of startsApp) console.log(`starts the app: ${relative(root, path)}`);
