/** The `icao` CLI run as a separate process (node --import tsx libs/icao9303/src/cli/main.ts). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, fixture } from './fixtures.js';

const F = (p: string) => join(FIXTURES, p);

function icao(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'libs/icao9303/src/cli/main.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout) };
}

describe('icao verify', () => {
  it('PASS with only --sod and a CSCA: exit 0, one JSON object', () => {
    const r = icao('verify', '--sod', F('real-documents/sod/EF_SOD_DE.bin'), '--csca', F('real-documents/csca/CSCA_DE.cer'), '--at', '2025-06-01');
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out).toMatchObject({ status: 'PASS', failures: [] });
    expect(Object.keys(out)).toEqual(['status', 'failures', 'checks', 'document']);
    expect(out.checks.documentSignature.signatureOk).toBe(true);
  });

  it('data groups and a master list; tampered DG1 → exit 1 with HASHES and CHAIN listed', () => {
    const r = icao(
      'verify',
      '--sod',
      F('etsi-tr103200/EF_SOD.bin'),
      '--dg',
      `1=${F('etsi-tr103200/negative/EF_DG1_country_modified.bin')}`,
      '--dg',
      `14=${F('etsi-tr103200/EF_DG14.bin')}`,
      '--masterlist',
      F('masterlists/DE_ML_2026-05-28-08-28-45.ml'),
      '--ml-anchor',
      F('masterlists/DE_ROOT_CA_CSCA07.cer'),
      '--at',
      '2012-01-01',
    );
    expect(r.code).toBe(1);
    const out = r.json();
    expect(out.status).toBe('STATUS_BAD_DOCUMENTHASHES');
    expect(out.failures.map((f: { status: string }) => f.status).sort()).toEqual(['STATUS_BAD_COUNTRYSIGNERCHAIN', 'STATUS_BAD_DOCUMENTHASHES']);
    expect(out.document.mrz.issuingState).toBe('SU');
  });

  it('Active Authentication challenge/signature on the command line', () => {
    // a specimen-free check: the BSI DSC trusted directly, DG15 not in the SOD → HASHES and CLONE
    const r = icao(
      'verify',
      '--sod',
      F('bsi-tr03105-5/EF_SOD.bin'),
      '--dg',
      `15=${F('bsi-tr03105-5/Datagroup15.bin')}`,
      '--csca',
      F('bsi-tr03105-5/DSC_HJP_PB_DS_0142fd5cf927.cer'),
      '--at',
      '2014-06-01',
      '--aa-challenge',
      '0011223344556677',
      '--aa-signature',
      '00'.repeat(128),
    );
    expect(r.code).toBe(1);
    expect(r.json().failures.map((f: { status: string }) => f.status)).toEqual(
      expect.arrayContaining(['STATUS_BAD_DOCUMENTHASHES', 'STATUS_BAD_CLONEDETECTION']),
    );
  });

  it('CRL file and folder of CSCAs', () => {
    const r = icao('verify', '--sod', F('real-documents/sod/EF_SOD_FR.bin'), '--csca', F('real-documents/csca'), '--at', '2025-06-01');
    expect(r.code).toBe(0);
  });

  it.each([
    [['verify'], /--sod/],
    [['verify', '--sod', F('bsi-tr03105-5/NEG_EF_SOD_trailing_byte.bin')], /trailing/],
    [['verify', '--sod', '/nonexistent/sod.bin'], /cannot read/],
    [['verify', '--sod', F('bsi-tr03105-5/EF_SOD.bin'), '--at', 'yesterday'], /ISO-8601/],
    [['verify', '--sod', F('bsi-tr03105-5/EF_SOD.bin'), '--dg', 'x=1'], /--dg/],
    [['verify', '--sod', F('bsi-tr03105-5/EF_SOD.bin'), '--bogus'], /bogus/],
    [['frobnicate'], /usage/],
  ])('unusable input %j → exit 2 and a message on stderr', (args, message) => {
    const r = icao(...(args as string[]));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message as RegExp);
  });
});

describe('icao parse', () => {
  it('DG2: image summarised by type, size and digest', () => {
    const r = icao('parse', F('dg2/EF_DG2_ISO19794-5_jpeg_gmrtd.bin'));
    expect(r.code).toBe(0);
    const face = r.json().value.faces[0];
    expect(face).toMatchObject({ imageType: 'JPEG', width: 148, height: 70, imageData: { size: 5099 } });
  });
  it('EF.SOD: hashes as hex and the document signer', () => {
    const out = icao('parse', F('real-documents/sod/EF_SOD_UK.bin')).json();
    expect(out.kind).toBe('EF.SOD');
    expect(out.value.ldsSecurityObject.dataGroupHashes.map((d: { dataGroup: number }) => d.dataGroup)).toEqual([1, 2, 14]);
    expect(out.value.ldsSecurityObject.dataGroupHashes[0].hash).toMatch(/^[0-9A-F]{64}$/);
    expect(out.documentSigner.subject).toMatch(/GB/);
  });
  it('DG11 and DG15', () => {
    expect(icao('parse', F('dg11-dg12-com/EF_DG11_icao_p10_A5_fixed.bin')).json().value.fullName.primaryIdentifier).toBe('SMITH');
    expect(icao('parse', F('bsi-tr03105-5/Datagroup15.bin')).json().value.publicKey).toMatchObject({ kind: 'RSA', bits: 1024 });
  });
  it('garbage → exit 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'icao-'));
    writeFileSync(join(dir, 'junk.bin'), Buffer.from(fixture('bsi-tr03105-5/EF_COM.bin').subarray(0, 5)));
    expect(icao('parse', join(dir, 'junk.bin')).code).toBe(2);
  });
});
