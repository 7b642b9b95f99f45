/**
 * Benchmark for the ICAO 9303 library: median time of a full passive authentication (parse SOD, data group
 * hashes, SOD signature, DS→CSCA chain) per test vector, and of loading the German CSCA master list.
 * Prints "before" (the library at a baseline git commit, extracted to a temporary folder) next to "after"
 * (this working tree). The two run interleaved in small alternating blocks in one process, so load from other
 * processes on a shared machine hits both alike; the ratio is steadier than either absolute figure.
 * Usage: npx tsx scripts/bench-icao.ts [passiveRuns=60] [masterListRuns=5] [--baseline <git ref>|--no-baseline]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

type Lib = typeof import('@identity-broker/icao9303');

/** the last commit before single-pass parsing and direct signature checks (see libs/icao9303/README.md) */
const DEFAULT_BASELINE = 'e6f4a0d';
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const noBaseline = args.includes('--no-baseline') ? (args.splice(args.indexOf('--no-baseline'), 1), true) : false;
const baselineRef = flag('--baseline') ?? DEFAULT_BASELINE;
const passiveRuns = Number(args[0] ?? 60);
const mlRuns = Number(args[1] ?? 5);

const shared = join(process.cwd(), '..', 'shared', 'testdata', 'icao');
const root = existsSync(join(shared, 'PROVENANCE.md')) ? shared : join(process.cwd(), 'test', 'fixtures', 'icao');
const read = (p: string) => new Uint8Array(readFileSync(join(root, p)));
const importLib = async (dir: string): Promise<Lib> => import(pathToFileURL(join(dir, 'libs', 'icao9303', 'src', 'index.ts')).href);

/**
 * Extracts the library at `ref` next to a link to our node_modules. tsx takes its compiler options (legacy
 * decorators for the ASN.1 schemas) only for files its tsconfig includes, so the bench runs again in a child
 * process with a tsconfig that includes both trees. Returns the folder in that child; undefined without git.
 */
function baselineDirectory(ref: string): string | undefined {
  if (process.env.ICAO_BENCH_BASELINE_DIR) return process.env.ICAO_BENCH_BASELINE_DIR;
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), 'icao-baseline-'));
    const tar = execFileSync('git', ['archive', ref, 'libs/icao9303', 'package.json'], { maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    symlinkSync(join(process.cwd(), 'node_modules'), join(dir, 'node_modules'));
  } catch (e) {
    console.log(`(no baseline: git archive ${ref} failed: ${(e as Error).message.split('\n')[0]})`);
    return undefined;
  }
  const { compilerOptions } = JSON.parse(readFileSync(join(process.cwd(), 'tsconfig.json'), 'utf8'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...compilerOptions, rootDir: undefined }, include: [`${dir}/**/*`, `${process.cwd()}/**/*`] }),
  );
  const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1], ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, TSX_TSCONFIG_PATH: join(dir, 'tsconfig.json'), ICAO_BENCH_BASELINE_DIR: dir },
  });
  rmSync(dir, { recursive: true, force: true });
  process.exit(child.status ?? 1);
}

function median(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Runs each function `runs` times in alternating blocks of 5 after one warm-up call each; medians in ms. */
function timeInterleaved(runs: number, fns: Array<() => void>): number[] {
  const samples = fns.map(() => [] as number[]);
  fns.forEach((fn) => fn()); // warm-up (JIT, lazy key import of the trust store)
  for (let done = 0; done < runs; done += 5) {
    fns.forEach((fn, k) => {
      for (let i = 0; i < Math.min(5, runs - done); i++) {
        const t = performance.now();
        fn();
        samples[k].push(performance.now() - t);
      }
    });
  }
  return samples.map(median);
}

const at = new Date('2025-06-01');
const cases: Array<{ name: string; sod: string; csca: string; dgs: Record<number, string> }> = [
  {
    name: 'AT  ECDSA brainpoolP256r1 + DG14',
    sod: 'real-documents/sod/EF_SOD_AT.bin',
    csca: 'real-documents/csca/CSCA_AT.cer',
    dgs: { 14: 'real-documents/dg/EF_DG14_AT.bin' },
  },
  {
    name: 'DE  ECDSA brainpoolP384r1 + DG14',
    sod: 'real-documents/sod/EF_SOD_DE.bin',
    csca: 'real-documents/csca/CSCA_DE.cer',
    dgs: { 14: 'real-documents/dg/EF_DG14_DE.bin' },
  },
  {
    name: 'MY  RSASSA-PSS + DG14',
    sod: 'real-documents/sod/EF_SOD_MY.bin',
    csca: 'real-documents/csca/CSCA_MY.cer',
    dgs: { 14: 'real-documents/dg/EF_DG14_MY.bin' },
  },
  {
    name: 'BSI RSASSA-PSS + DG1,2,3,4,14 (61 KB)',
    sod: 'bsi-tr03105-5/EF_SOD.bin',
    csca: 'bsi-tr03105-5/DSC_HJP_PB_DS_0142fd5cf927.cer',
    dgs: {
      1: 'bsi-tr03105-5/Datagroup1.bin',
      2: 'bsi-tr03105-5/Datagroup2.bin',
      3: 'bsi-tr03105-5/Datagroup3.bin',
      4: 'bsi-tr03105-5/Datagroup4.bin',
      14: 'bsi-tr03105-5/Datagroup14.bin',
    },
  },
];

/** The four steps of 9303-11 §5.1 as the service runs them; throws unless the vector verifies. */
function passiveAuthentication(
  lib: Lib,
  store: InstanceType<Lib['TrustStore']>,
  sodBytes: Uint8Array,
  dgs: Map<number, Uint8Array>,
  when: Date,
  name: string,
  firstSeenDs = false,
): () => void {
  // optional call: the baseline has no Document Signer cache
  const forget = (lib.DocumentCertificate as { clearSignerCache?: () => void }).clearSignerCache;
  return () => {
    if (firstSeenDs) forget?.();
    const sod = lib.parseSod(sodBytes);
    const hashes = lib.checkDataGroupHashes(sod, dgs);
    const sig = lib.checkSignerSignature(sod);
    const chain = lib.checkCertificateChain(sig.signer!, store, when, sig.signingTime);
    if (!hashes.ok || !sig.ok || !chain.ok) throw new Error(`${name} did not verify`);
  };
}

const baselineDir = noBaseline ? undefined : baselineDirectory(baselineRef);
const libs: Array<{ label: string; lib: Lib }> = [
  ...(baselineDir ? [{ label: `before (${baselineRef})`, lib: await importLib(baselineDir) }] : []),
  { label: 'after (working tree)', lib: await importLib(process.cwd()) },
];
const row = (name: string, ms: number[], digits = 2) =>
  `  ${name.padEnd(40)} ${ms.map((m) => `${m.toFixed(digits).padStart(8)} ms`).join('  ')}${ms.length === 2 ? `   ×${(ms[0] / ms[1]).toFixed(1)}` : ''}`;

console.log(`ICAO 9303 benchmark (data from ${root}); node ${process.version}; median of ${passiveRuns}, before and after interleaved`);
for (const firstSeenDs of [false, true]) {
  console.log(
    firstSeenDs
      ? '\nFirst document of its Document Signer (DS certificate decode, key import and CSCA signature check included):'
      : '\nFull passive authentication (parse SOD + hashes + signature + chain), DS seen before (one DS signs many documents):',
  );
  console.log(`  ${''.padEnd(40)} ${libs.map((l) => l.label).join('  ')}`);
  for (const c of cases) {
    const dgs = new Map(Object.entries(c.dgs).map(([n, p]) => [Number(n), read(p)]));
    const when = c.sod.startsWith('bsi') ? new Date('2014-06-01') : at;
    const fns = libs.map(({ lib }) => {
      const store = new lib.TrustStore();
      store.addCsca(read(c.csca));
      return passiveAuthentication(lib, store, read(c.sod), dgs, when, c.name, firstSeenDs);
    });
    console.log(row(c.name, timeInterleaved(passiveRuns, fns)));
  }
}

console.log('');
const mlBytes = read('masterlists/DE_ML_2026-05-28-08-28-45.ml');
const anchor = read('masterlists/DE_ROOT_CA_CSCA07.cer');
let count = 0;
const mlMs = timeInterleaved(
  mlRuns,
  libs.map(({ lib }) => () => {
    count = new lib.TrustStore().addMasterList(mlBytes, [anchor]).certificates.length;
  }),
);
console.log(row(`DE master list load (${(mlBytes.length / 1024).toFixed(0)} KB, ${count} certs)`, mlMs, 1));
const bigStore = libs.map(({ lib }) => {
  const store = new lib.TrustStore();
  store.addMasterList(mlBytes, [anchor]);
  return passiveAuthentication(lib, store, read('real-documents/sod/EF_SOD_AT.bin'), new Map(), at, 'AT against the master list');
});
console.log(row(`AT against that ${count}-certificate store`, timeInterleaved(passiveRuns, bigStore)));
