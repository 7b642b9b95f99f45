/**
 * Benchmark for the ICAO 9303 library: median time of a full passive authentication (data group hashes,
 * SOD signature, DS→CSCA chain) and of loading the German CSCA master list. Prints figures only.
 * Usage: npx tsx scripts/bench-icao.ts [passiveRuns=50] [masterListRuns=5]
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseSod, checkDataGroupHashes, checkSignerSignature, checkCertificateChain, TrustStore } from '../libs/icao9303/src/index.js';

const shared = join(process.cwd(), '..', 'shared', 'testdata', 'icao');
const root = existsSync(join(shared, 'PROVENANCE.md')) ? shared : join(process.cwd(), 'test', 'fixtures', 'icao');
const read = (p: string) => new Uint8Array(readFileSync(join(root, p)));
const passiveRuns = Number(process.argv[2] ?? 50);
const mlRuns = Number(process.argv[3] ?? 5);

function median(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function time(runs: number, fn: () => void): number {
  fn(); // warm-up (JIT, lazy key import)
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

const at = new Date('2025-06-01');
const cases: Array<{ name: string; sod: string; csca: string; dgs: Record<number, string> }> = [
  { name: 'AT  ECDSA brainpoolP256r1 + DG14', sod: 'real-documents/sod/EF_SOD_AT.bin', csca: 'real-documents/csca/CSCA_AT.cer', dgs: { 14: 'real-documents/dg/EF_DG14_AT.bin' } },
  { name: 'DE  ECDSA brainpoolP384r1 + DG14', sod: 'real-documents/sod/EF_SOD_DE.bin', csca: 'real-documents/csca/CSCA_DE.cer', dgs: { 14: 'real-documents/dg/EF_DG14_DE.bin' } },
  { name: 'MY  RSASSA-PSS + DG14', sod: 'real-documents/sod/EF_SOD_MY.bin', csca: 'real-documents/csca/CSCA_MY.cer', dgs: { 14: 'real-documents/dg/EF_DG14_MY.bin' } },
  { name: 'BSI RSASSA-PSS + DG1,2,3,4,14 (61 KB)', sod: 'bsi-tr03105-5/EF_SOD.bin', csca: 'bsi-tr03105-5/DSC_HJP_PB_DS_0142fd5cf927.cer', dgs: { 1: 'bsi-tr03105-5/Datagroup1.bin', 2: 'bsi-tr03105-5/Datagroup2.bin', 3: 'bsi-tr03105-5/Datagroup3.bin', 4: 'bsi-tr03105-5/Datagroup4.bin', 14: 'bsi-tr03105-5/Datagroup14.bin' } },
];

console.log(`ICAO 9303 benchmark (data from ${root}); node ${process.version}`);
console.log(`\nFull passive authentication (parse SOD + hashes + signature + chain), median of ${passiveRuns}:`);
for (const c of cases) {
  const store = new TrustStore();
  store.addCsca(read(c.csca));
  const sodBytes = read(c.sod);
  const dgs = new Map(Object.entries(c.dgs).map(([n, p]) => [Number(n), read(p)]));
  const bsiAt = c.sod.startsWith('bsi') ? new Date('2014-06-01') : at;
  const ms = time(passiveRuns, () => {
    const sod = parseSod(sodBytes);
    const hashes = checkDataGroupHashes(sod, dgs);
    const sig = checkSignerSignature(sod);
    const chain = checkCertificateChain(sig.signer!, store, bsiAt, sig.signingTime);
    if (!hashes.ok || !sig.ok || !chain.ok) throw new Error(`${c.name} did not verify`);
  });
  console.log(`  ${c.name.padEnd(40)} ${ms.toFixed(2)} ms`);
}

const mlBytes = read('masterlists/DE_ML_2026-05-28-08-28-45.ml');
const anchor = read('masterlists/DE_ROOT_CA_CSCA07.cer');
let count = 0;
const mlMs = time(mlRuns, () => {
  count = new TrustStore().addMasterList(mlBytes, [anchor]).certificates.length;
});
console.log(`\nLoad + verify German master list (${(mlBytes.length / 1024).toFixed(0)} KB, ${count} certificates), median of ${mlRuns}: ${mlMs.toFixed(1)} ms`);

const store = new TrustStore();
store.addMasterList(mlBytes, [anchor]);
const sodAt = read('real-documents/sod/EF_SOD_AT.bin');
const chainMs = time(passiveRuns, () => {
  const sod = parseSod(sodAt);
  const sig = checkSignerSignature(sod);
  checkCertificateChain(sig.signer!, store, at, sig.signingTime);
});
console.log(`Passive authentication of AT SOD against the ${count}-certificate master list store, median of ${passiveRuns}: ${chainMs.toFixed(2)} ms`);
