/**
 * Summarises a V8 CPU profile (`node --cpu-prof` writes *.cpuprofile): the functions and the modules
 * (npm package, or our own top folder) with the most self time.
 *
 *   npx tsx scripts/cpu-profile-top.ts <file.cpuprofile> [count=15] [skip-first-ms=0]
 * skip-first-ms leaves out the samples of the process's first milliseconds (its start-up, before the load).
 * Also the project's own functions (src/, libs/) by total time (theirs and what they call): where a request's
 * time goes beyond the engine.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, countArg, skipArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: tsx scripts/cpu-profile-top.ts <file.cpuprofile> [count]\n');
  process.exit(2);
}
const count = Number(countArg ?? 15);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

// Self time per node: each sample's time delta goes to the node it sampled.
const skipUs = Number(skipArg ?? 0) * 1000;
const selfUs = new Map<number, number>();
let at = 0;
let totalUs = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  at += delta;
  if (at < skipUs) return;
  totalUs += delta;
  selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
});
const byId = new Map(profile.nodes.map((n) => [n.id, n]));

/** "oidc-provider", "@nestjs/core", "src/oidc", "node:internal", "(program)" ... */
function moduleOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) return url.split('/')[0];
  const ours = /\/(src|libs|scripts)\/([^/]+)/.exec(url);
  return ours ? `${ours[1]}/${ours[2]}` : url;
}

const functions = new Map<string, number>();
const modules = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id);
  if (!node) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const mod = moduleOf(url, functionName);
  const fn = `${functionName || '(anonymous)'}  ${url ? `${mod}${url.includes('node_modules') || url.startsWith('node:') ? '' : ` ${url.split('/').slice(-1)[0]}`}:${lineNumber + 1}` : ''}`;
  functions.set(fn, (functions.get(fn) ?? 0) + us);
  modules.set(mod, (modules.get(mod) ?? 0) + us);
}

const print = (title: string, rows: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [name, us] of [...rows].sort((x, y) => y[1] - x[1]).slice(0, count))
    console.log(`${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / totalUs).toFixed(1).padStart(5)} %  ${name}`);
};
// Total time of the project's functions: a node's self time counts for each distinct own function on its stack.
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
const ownName = (n: ProfileNode): string | undefined => {
  const { functionName, url, lineNumber } = n.callFrame;
  const own = /\/(src|libs)\/(.+)$/.exec(url);
  return own && !url.includes('node_modules') ? `${functionName || '(anonymous)'}  ${own[1]}/${own[2].replace(/\.js$/, '')}:${lineNumber + 1}` : undefined;
};
const totals = new Map<string, number>();
for (const [id, us] of selfUs) {
  const names = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const name = ownName(byId.get(at)!);
    if (name) names.add(name);
  }
  for (const name of names) totals.set(name, (totals.get(name) ?? 0) + us);
}

console.log(`${file}: ${(totalUs / 1e6).toFixed(1)} s profiled${skipUs ? ` (after the first ${skipUs / 1000} ms)` : ''}, ${profile.samples.length} samples`);
print(`top ${count} functions by self time`, functions);
print(`top ${count} modules by self time`, modules);
print(`top ${count} of the project's functions by total time`, totals);
