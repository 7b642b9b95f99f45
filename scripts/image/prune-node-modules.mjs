// Prunes the production node_modules of the image's build stage (Dockerfile, after `npm prune --omit=dev`) by an
// explicit list (scripts/image/prune-list.txt), then checks what is left: no package that `npm ls --omit=dev` does
// not name, and no native binary for another platform. Any listed package or pattern that matches nothing fails,
// as does either check, so that a dependency update cannot change silently what the image carries.
// docs/deployment.md "What the image leaves out".
//
//   node scripts/image/prune-node-modules.mjs scripts/image/prune-list.txt [--root /app] [--no-tree-check]
//
// The list, one directive a line ('#' starts a comment; a line that starts with a space continues the one above):
//   keep <package> <glob>...   in node_modules/<package>, remove every file no glob matches (package.json and
//                              license files always stay); each glob must match a file
//   drop <glob>...             remove what matches under node_modules (a folder goes whole); each glob must match
// `{arch}` in a glob stands for this Node's process.arch (x64, arm64): the build stage runs the image's own Node.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, lstatSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const ELF_MACHINES = { x64: 62, arm64: 183 };
const FOREIGN_EXTENSIONS = ['.dylib', '.dll', '.exe'];

/** A refusal of this script (a list that no longer fits node_modules, a failed check), reported without a stack. */
const refusal = (message) => Object.assign(new Error(message), { refusal: true });

export function parseList(text, arch = process.arch) {
  const directives = [];
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.replace(/#.*/, '');
    const words = line
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((word) => word.replaceAll('{arch}', arch));
    if (words.length === 0) continue;
    if (/^\s/.test(line)) {
      if (directives.length === 0) throw refusal(`line ${index + 1}: a continuation before any directive`);
      directives.at(-1).globs.push(...words);
      continue;
    }
    const [verb, ...rest] = words;
    if (verb === 'keep' && rest.length >= 1) directives.push({ verb, line: index + 1, pkg: rest[0], globs: rest.slice(1) });
    else if (verb === 'drop') directives.push({ verb, line: index + 1, globs: rest });
    else throw refusal(`line ${index + 1}: expected 'keep <package> <glob>...' or 'drop <glob>...', got '${line.trim()}'`);
  }
  for (const directive of directives) {
    if (directive.globs.length === 0) throw refusal(`line ${directive.line}: ${directive.verb} without a glob`);
  }
  return directives;
}

/** Every entry under `root` as [relative path, lstat], depth first, never through a symbolic link. */
function* walk(root, relative = '') {
  for (const name of readdirSync(path.join(root, relative)).sort()) {
    const entry = relative ? `${relative}/${name}` : name;
    const stat = lstatSync(path.join(root, entry));
    yield [entry, stat];
    if (stat.isDirectory()) yield* walk(root, entry);
  }
}

function sizeOf(root, entry, stat = lstatSync(path.join(root, entry))) {
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const [, inner] of walk(root, entry)) if (!inner.isDirectory()) total += inner.size;
  return total;
}

/** A package's licence text stays wherever it is (LICENSE.md too): the image redistributes the package. */
const isLicense = (entry) => /^(licen[cs]e|notice)/i.test(path.basename(entry));

function keep(nodeModules, directive) {
  const dir = path.join(nodeModules, directive.pkg);
  if (!existsSync(path.join(dir, 'package.json'))) throw refusal(`line ${directive.line}: no package ${directive.pkg} in ${nodeModules}`);
  const files = [...walk(dir)].filter(([, stat]) => !stat.isDirectory()).map(([entry]) => entry);
  const unmatched = directive.globs.filter((glob) => !files.some((file) => path.matchesGlob(file, glob)));
  if (unmatched.length > 0) throw refusal(`line ${directive.line}: ${directive.pkg} has nothing matching ${unmatched.join(', ')}`);
  // The package's own package.json and licence (at its top), never those of packages nested in it.
  const ownFile = (file) => !file.includes('/') && (file === 'package.json' || isLicense(file));
  const kept = (file) => ownFile(file) || directive.globs.some((glob) => path.matchesGlob(file, glob));
  let removed = 0;
  for (const file of files.filter((f) => !kept(f))) {
    removed += lstatSync(path.join(dir, file)).size;
    rmSync(path.join(dir, file));
  }
  removeEmptyFolders(dir);
  return removed;
}

function removeEmptyFolders(dir) {
  const folders = [...walk(dir)].filter(([, stat]) => stat.isDirectory()).map(([entry]) => entry);
  for (const folder of folders.reverse()) {
    if (readdirSync(path.join(dir, folder)).length === 0) rmSync(path.join(dir, folder), { recursive: true });
  }
}

function drop(nodeModules, directive) {
  const matched = new Map(directive.globs.map((glob) => [glob, 0]));
  const doomed = [];
  const skip = [];
  for (const [entry, stat] of walk(nodeModules)) {
    if (skip.some((folder) => entry.startsWith(`${folder}/`))) continue;
    const globs = directive.globs.filter((glob) => path.matchesGlob(entry, glob));
    if (globs.length === 0 || isLicense(entry)) continue;
    for (const glob of globs) matched.set(glob, matched.get(glob) + 1);
    doomed.push([entry, stat]);
    if (stat.isDirectory()) skip.push(entry);
  }
  const unmatched = [...matched].filter(([, count]) => count === 0).map(([glob]) => glob);
  if (unmatched.length > 0) throw refusal(`line ${directive.line}: nothing in ${nodeModules} matches ${unmatched.join(', ')}`);
  let removed = 0;
  for (const [entry, stat] of doomed) {
    removed += sizeOf(nodeModules, entry, stat);
    rmSync(path.join(nodeModules, entry), { recursive: true, force: true });
  }
  return removed;
}

/** Links in .bin folders whose package was pruned. */
function removeDanglingBinLinks(nodeModules) {
  for (const [entry, stat] of [...walk(nodeModules)]) {
    if (stat.isSymbolicLink() && path.basename(path.dirname(entry)) === '.bin' && !existsSync(path.join(nodeModules, entry))) {
      rmSync(path.join(nodeModules, entry));
    }
  }
}

/** Native code another platform loads: Mach-O or PE by name, an ELF file for another machine, a .node that is no ELF. */
export function findForeignBinaries(nodeModules, arch = process.arch) {
  const foreign = [];
  const header = Buffer.alloc(20);
  for (const [entry, stat] of walk(nodeModules)) {
    if (!stat.isFile()) continue;
    if (FOREIGN_EXTENSIONS.some((extension) => entry.endsWith(extension))) {
      foreign.push(entry);
      continue;
    }
    const fd = openSync(path.join(nodeModules, entry), 'r');
    const length = readSync(fd, header, 0, header.length, 0);
    closeSync(fd);
    const elf = length >= 20 && header.readUInt32BE(0) === 0x7f454c46;
    if (elf ? header.readUInt16LE(18) !== ELF_MACHINES[arch] : entry.endsWith('.node')) foreign.push(entry);
  }
  return foreign;
}

/** Packages in node_modules that `npm ls --omit=dev` does not name: development-only or extraneous. */
function findNonProductionPackages(root) {
  const ls = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: root, encoding: 'utf8' });
  // npm ls exits 1 for the packages this script removed (reported missing); what it names is still complete.
  const production = new Set(ls.stdout.split('\n').filter(Boolean));
  if (production.size < 2) throw refusal(`npm ls --omit=dev named no package: ${ls.stderr}`);
  const installed = [];
  const visit = (nodeModules) => {
    for (const name of readdirSync(nodeModules)) {
      if (name.startsWith('.')) continue;
      const names = name.startsWith('@') ? readdirSync(path.join(nodeModules, name)).map((inner) => `${name}/${inner}`) : [name];
      for (const pkg of names) {
        installed.push(path.join(nodeModules, pkg));
        const nested = path.join(nodeModules, pkg, 'node_modules');
        if (existsSync(nested) && statSync(nested).isDirectory()) visit(nested);
      }
    }
  };
  visit(path.join(root, 'node_modules'));
  return installed.filter((dir) => !production.has(dir));
}

export function prune(root, listText, { treeCheck = true, log = console.log } = {}) {
  const nodeModules = path.join(root, 'node_modules');
  const directives = parseList(listText);
  const before = sizeOf(root, 'node_modules');
  for (const directive of directives) {
    const removed = directive.verb === 'keep' ? keep(nodeModules, directive) : drop(nodeModules, directive);
    const what = directive.verb === 'keep' ? `keep ${directive.pkg}` : `drop ${directive.globs.join(' ')}`;
    log(`prune: ${what}: ${(removed / 1e6).toFixed(1)} MB removed`);
  }
  removeDanglingBinLinks(nodeModules);
  // Folders left empty (a src/ of TypeScript only; scopes npm prune emptied) are no use either.
  removeEmptyFolders(nodeModules);
  const foreign = findForeignBinaries(nodeModules);
  if (foreign.length > 0) throw refusal(`native code for another platform than linux-${process.arch}: ${foreign.join(', ')}`);
  if (treeCheck) {
    const extra = findNonProductionPackages(root);
    if (extra.length > 0) throw refusal(`packages npm ls --omit=dev does not name (development-only or extraneous): ${extra.join(', ')}`);
  }
  log(`prune: node_modules ${(before / 1e6).toFixed(1)} MB -> ${(sizeOf(root, 'node_modules') / 1e6).toFixed(1)} MB`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (name) => {
    const at = args.indexOf(name);
    return at === -1 ? undefined : args.splice(at, 2)[1];
  };
  const treeCheck = !args.includes('--no-tree-check');
  const root = path.resolve(option('--root') ?? '.');
  const list = args.find((arg) => !arg.startsWith('--'));
  try {
    if (!list) throw refusal('usage: prune-node-modules.mjs <list> [--root <dir>] [--no-tree-check]');
    prune(root, readFileSync(list, 'utf8'), { treeCheck });
  } catch (error) {
    if (!error.refusal) throw error;
    console.error(`prune-node-modules: ${error.message}`);
    process.exit(1);
  }
}
