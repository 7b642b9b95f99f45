/**
 * Where the house keeps two toolkits for one job, the two side by side (docs/libraries.md gives the figures):
 *
 *   npm run bench:toolkits
 *
 * - JPEG: our decoder (libs/face, DCT-domain scaling) against jpeg-js (full decode, then the same downscale), on the
 *   test fixtures at full size and on a 12 MP frame made from one of them, each decode in a process of its own so its
 *   peak resident memory is its own (the face worker's heap is bounded, docs/operations.md).
 * - ASN.1: an EF.SOD read by icao9303's single-pass DER reader (parseSod) against a schema decode of the same
 *   SignedData with @peculiar/asn1-cms (what the reader replaced on passive authentication's path).
 * - JWS: the DPoP proof check (libs/eu-wallet over node:crypto) against jose's jwtVerify with the embedded jwk plus
 *   the same RFC 9449 claim checks, and what each does with the holder algorithms the issuer's metadata offers.
 */
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { decodeImage, decodeImageToFit, downscaleToFit, MAX_ANALYSIS_SIDE } from '@identity-broker/face';
import { verifyDpopProof } from '@identity-broker/eu-wallet';
import { createSpecimenAuthority, issueSpecimenDocument, parseSod } from '@identity-broker/icao9303';
import { ContentInfo, SignedData } from '@peculiar/asn1-cms';
import { AsnConvert } from '@peculiar/asn1-schema';
import jpeg from 'jpeg-js';
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify } from 'jose';

const FIXTURES = [
  'test/fixtures/verifier-faces/howard-document.jpg',
  'test/fixtures/jpeg/progressive-420.jpg',
  'test/fixtures/icao/dg2/ISO19794-5_FAC_record_Test1_expected_face.jpg',
];
const MB = 1024 * 1024;

/** One decoder on one file, in this (child) process: mean ms over `runs`, and the peak RSS above the loaded baseline. */
async function jpegChild(decoder: string, file: string, runs: number): Promise<void> {
  const bytes = new Uint8Array(readFileSync(file));
  const baseline = process.memoryUsage().rss;
  const toFit = decoder.endsWith('-fit');
  const decode = decoder.startsWith('own')
    ? async () => (toFit ? (await decodeImageToFit(bytes, MAX_ANALYSIS_SIDE)).image : decodeImage(bytes))
    : async () => {
        const raw = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: false, maxMemoryUsageInMB: 2048 });
        const image = { width: raw.width, height: raw.height, data: new Uint8Array(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength) };
        return toFit ? downscaleToFit(image, MAX_ANALYSIS_SIDE).image : image;
      };
  const first = await decode();
  const start = performance.now();
  for (let i = 0; i < runs; i++) await decode();
  const ms = (performance.now() - start) / runs;
  const peak = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(JSON.stringify({ ms, peakAboveBaselineMb: Math.max(0, peak - baseline) / MB, size: `${first.width}x${first.height}` }));
}

/** A 4000x3000 baseline JPEG (quality 90) of a fixture face, scaled up by nearest neighbour: the size of a phone frame. */
function twelveMegapixelFrame(directory: string): string {
  const source = jpeg.decode(readFileSync(FIXTURES[1]), { useTArray: true, formatAsRGBA: true });
  const width = 4000;
  const height = 3000;
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const from = (Math.floor((y * source.height) / height) * source.width + Math.floor((x * source.width) / width)) * 4;
      data.set(source.data.subarray(from, from + 4), (y * width + x) * 4);
    }
  const file = join(directory, 'frame-12mp.jpg');
  writeFileSync(file, jpeg.encode({ width, height, data }, 90).data);
  return file;
}

function jpegSection(): void {
  const frame = twelveMegapixelFrame(mkdtempSync(join(tmpdir(), 'bench-toolkits-')));
  const cases: [string, string, number][] = [
    ...FIXTURES.flatMap((file): [string, string, number][] => [
      ['own', file, 200],
      ['jpeg-js', file, 200],
    ]),
    ['own-fit', frame, 5],
    ['jpeg-js-fit', frame, 5],
  ];
  process.stdout.write('JPEG decode: mean ms per image, peak RSS above the loaded process (MB)\n');
  for (const [decoder, file, runs] of cases) {
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1], '--jpeg-child', decoder, file, String(runs)], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    const r = JSON.parse(child.stdout) as { ms: number; peakAboveBaselineMb: number; size: string };
    process.stdout.write(
      `  ${decoder.padEnd(12)} ${file.split('/').pop()!.padEnd(44)} -> ${r.size.padEnd(10)} ${r.ms.toFixed(2).padStart(8)} ms ${r.peakAboveBaselineMb.toFixed(0).padStart(5)} MB\n`,
    );
  }
}

/** A DPoP proof (RFC 9449 §4.2) signed with node:crypto, so any curve node knows can be tried. */
function dpopProof(privateKey: KeyObject, publicJwk: object, alg: string, url: string): string {
  const header = Buffer.from(JSON.stringify({ typ: 'dpop+jwt', alg, jwk: publicJwk })).toString('base64url');
  const payload = Buffer.from(JSON.stringify({ jti: randomUUID(), htm: 'POST', htu: url, iat: Math.floor(Date.now() / 1000) })).toString('base64url');
  const hash = alg === 'EdDSA' ? null : { ES256: 'sha256', ES384: 'sha384', ES512: 'sha512' }[alg]!;
  const signature = sign(hash, Buffer.from(`${header}.${payload}`), alg === 'EdDSA' ? privateKey : { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${header}.${payload}.${signature.toString('base64url')}`;
}

async function joseCheck(proof: string, url: string): Promise<string> {
  const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, {
    typ: 'dpop+jwt',
    algorithms: ['ES256', 'ES384', 'ES512', 'EdDSA'],
    maxTokenAge: 300,
    clockTolerance: 60,
  });
  if (payload.htm !== 'POST' || payload.htu !== url || typeof payload.jti !== 'string') throw new Error('claims');
  return calculateJwkThumbprint(protectedHeader.jwk!);
}

async function joseSection(): Promise<void> {
  const url = 'https://broker.test.invalid/vci/token';
  const runs = 2000;
  process.stdout.write(`\nDPoP proof check: mean µs per proof over ${runs} (ES256), and which holder keys each accepts\n`);
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const proof = dpopProof(privateKey, publicKey.export({ format: 'jwk' }), 'ES256', url);
  const now = new Date();
  for (const [name, check] of [
    ['own (node:crypto)', async () => verifyDpopProof({ proof, method: 'POST', url, now }).jkt],
    ['jose jwtVerify', () => joseCheck(proof, url)],
  ] as const) {
    for (let i = 0; i < 200; i++) await check();
    const start = performance.now();
    for (let i = 0; i < runs; i++) await check();
    process.stdout.write(`  ${name.padEnd(18)} ${(((performance.now() - start) / runs) * 1000).toFixed(0).padStart(5)} µs\n`);
  }
  for (const [curve, alg] of [
    ['P-384', 'ES384'],
    ['P-521', 'ES512'],
    ['ed25519', 'EdDSA'],
    ['ed448', 'EdDSA'],
  ] as const) {
    const keys = curve.startsWith('P-') ? generateKeyPairSync('ec', { namedCurve: curve }) : generateKeyPairSync(curve as 'ed25519');
    const p = dpopProof(keys.privateKey, keys.publicKey.export({ format: 'jwk' }), alg, url);
    const own = (() => {
      try {
        verifyDpopProof({ proof: p, method: 'POST', url, now });
        return 'accepted';
      } catch (e) {
        return (e as Error).message;
      }
    })();
    const viaJose = await joseCheck(p, url).then(
      () => 'accepted',
      (e: Error) => e.message,
    );
    process.stdout.write(`  ${alg} ${curve.padEnd(8)} own: ${own}; jose: ${viaJose}\n`);
  }
}

async function asn1Section(): Promise<void> {
  const runs = 500;
  process.stdout.write(`\nEF.SOD read: mean ms per SOD over ${runs} (a specimen with DG1, DG2, DG15; ECDSA document signer)\n`);
  const document = await issueSpecimenDocument(await createSpecimenAuthority(), { faceImage: new Uint8Array(readFileSync(FIXTURES[0])) });
  const contentInfo = document.sod.subarray(document.sod[1] & 0x80 ? 2 + (document.sod[1] & 0x7f) : 2);
  for (const [name, read] of [
    ['own DER reader', () => parseSod(document.sod).ldsSecurityObject.dataGroupHashes.length],
    ['@peculiar/asn1-cms', () => AsnConvert.parse(AsnConvert.parse(contentInfo, ContentInfo).content, SignedData).signerInfos.length],
  ] as const) {
    for (let i = 0; i < 50; i++) read();
    const start = performance.now();
    for (let i = 0; i < runs; i++) read();
    process.stdout.write(`  ${name.padEnd(20)} ${((performance.now() - start) / runs).toFixed(3).padStart(7)} ms\n`);
  }
}

if (process.argv[2] === '--jpeg-child') await jpegChild(process.argv[3], process.argv[4], Number(process.argv[5]));
else {
  jpegSection();
  await asn1Section();
  await joseSection();
}
