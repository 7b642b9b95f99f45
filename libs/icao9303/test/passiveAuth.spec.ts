/** Passive authentication against every SOD vector of PROVENANCE.md §1–3 and §5. */
import {
  verifyDocument,
  parseSod,
  parseCardSecurity,
  checkSignerSignature,
  checkCertificateChain,
  checkDataGroupHashes,
  TrustStore,
  DocumentCertificate,
  STATUS,
  Icao9303Error,
} from '@identity-broker/icao9303';
import { OID } from '../src/asn1/oids.js';
import { fixture } from './fixtures.js';

const AT = new Date('2025-06-01T00:00:00Z');
const REAL = ['AT', 'CN', 'DE', 'FI', 'FR', 'MY', 'UK'];
const ML = 'masterlists/DE_ML_2026-05-28-08-28-45.ml';
const ML_ANCHOR = 'masterlists/DE_ROOT_CA_CSCA07.cer';

let deMasterList: TrustStore;
beforeAll(() => {
  deMasterList = new TrustStore();
  deMasterList.addMasterList(fixture(ML), [fixture(ML_ANCHOR)]);
});

const own = (country: string) => {
  const s = new TrustStore();
  s.addCsca(fixture(`real-documents/csca/CSCA_${country}.cer`));
  return s;
};
const trusting = (path: string) => {
  const s = new TrustStore();
  s.addCsca(fixture(path));
  return s;
};
const statuses = (r: { failures: Array<{ status: string }> }) => [...new Set(r.failures.map((f) => f.status))].sort();

describe('real documents (PROVENANCE §3)', () => {
  it.each(REAL)('%s: signature verifies and chains to its own CSCA', (c) => {
    const r = verifyDocument({ sod: fixture(`real-documents/sod/EF_SOD_${c}.bin`), trustStore: own(c), at: AT });
    expect(r.checks.documentSignature).toMatchObject({ messageDigestOk: true, signatureOk: true });
    expect(r.checks.certificateChain.path).toHaveLength(2);
    expect(r.status).toBe(STATUS.PASS);
  });
  it.each(REAL)('%s: chains to a CSCA of the German master list', (c) => {
    const r = verifyDocument({ sod: fixture(`real-documents/sod/EF_SOD_${c}.bin`), trustStore: deMasterList, at: AT });
    expect(r.status).toBe(STATUS.PASS);
  });
  it('ID: signature verifies, but no issuer in the master list → CHAIN', () => {
    const r = verifyDocument({ sod: fixture('real-documents/sod/EF_SOD_ID.bin'), trustStore: deMasterList, at: AT });
    expect(r.checks.documentSignature.ok).toBe(true);
    expect(statuses(r)).toEqual([STATUS.BAD_COUNTRY_SIGNER_CHAIN]);
  });
  it('trusting the wrong country gives CHAIN', () => {
    const r = verifyDocument({ sod: fixture('real-documents/sod/EF_SOD_AT.bin'), trustStore: own('FR'), at: AT });
    expect(r.status).toBe(STATUS.BAD_COUNTRY_SIGNER_CHAIN);
  });
  it('removing the matching CSCAs from the master list pool gives CHAIN', () => {
    const pool = new TrustStore();
    pool.addMasterList(fixture(ML), [fixture(ML_ANCHOR)]);
    expect(pool.remove((c) => c.subject.startsWith('C=AT'))).toBeGreaterThan(0);
    expect(verifyDocument({ sod: fixture('real-documents/sod/EF_SOD_AT.bin'), trustStore: pool, at: AT }).status).toBe(STATUS.BAD_COUNTRY_SIGNER_CHAIN);
  });
  it('CN uses eContentType id-data: tolerated with a warning', () => {
    const r = verifyDocument({ sod: fixture('real-documents/sod/EF_SOD_CN.bin'), trustStore: own('CN'), at: AT });
    expect(r.checks.documentSignature.warnings.join()).toMatch(/id-data/);
  });
  it.each([
    ['AT', 14],
    ['DE', 14],
    ['FI', 14],
    ['FR', 14],
    ['MY', 14],
    ['FR', 12],
  ])('%s DG%s hash matches the SOD', (c, dg) => {
    const dgs = new Map([[dg, fixture(`real-documents/dg/EF_DG${dg}_${c}.bin`)]]);
    const r = verifyDocument({ sod: fixture(`real-documents/sod/EF_SOD_${c}.bin`), dataGroups: dgs, trustStore: own(c), at: AT });
    expect(r.checks.dataGroupHashes.results).toEqual([expect.objectContaining({ dataGroup: dg, ok: true })]);
    expect(r.status).toBe(STATUS.PASS);
  });
  it('a DG from another country fails the hash check', () => {
    const r = verifyDocument({
      sod: fixture('real-documents/sod/EF_SOD_AT.bin'),
      dataGroups: new Map([[14, fixture('real-documents/dg/EF_DG14_DE.bin')]]),
      trustStore: own('AT'),
      at: AT,
    });
    expect(statuses(r)).toEqual([STATUS.BAD_DOCUMENT_HASHES]);
  });
  it('EF_SOD_DE with the last signature byte changed → SIG only', () => {
    const r = verifyDocument({ sod: fixture('real-documents/negative/EF_SOD_DE_lastbyte_C7toC8.bin'), trustStore: own('DE'), at: AT });
    expect(r.checks.documentSignature).toMatchObject({ messageDigestOk: true, signatureOk: false });
    expect(statuses(r)).toEqual([STATUS.BAD_DOCUMENT_SIGNATURE]);
  });
  it('EF_SOD_UK with eContentType 2.23.136.2.2.2 → SIG', () => {
    const r = verifyDocument({ sod: fixture('real-documents/negative/EF_SOD_UK_bad_eContentType_oid.bin'), trustStore: own('UK'), at: AT });
    expect(r.checks.documentSignature).toMatchObject({ eContentTypeOk: false, signatureOk: false });
    expect(statuses(r)).toEqual([STATUS.BAD_DOCUMENT_SIGNATURE]);
  });
  it('EF_SOD_UK with a malformed LDSSecurityObject length → typed parse error', () => {
    expect(() => verifyDocument({ sod: fixture('real-documents/negative/EF_SOD_UK_malformed_lds_length.bin'), trustStore: own('UK'), at: AT })).toThrow(
      expect.objectContaining({ code: 'SOD_MALFORMED' }),
    );
  });
});

describe('EF.CardSecurity (PROVENANCE §3)', () => {
  it.each(['DE', 'FI'])('%s signature verifies', (c) => {
    const cs = parseCardSecurity(fixture(`real-documents/cardsecurity/EF_CardSecurity_${c}.bin`));
    expect(checkSignerSignature(cs, { expectedContentType: OID.securityObject }).ok).toBe(true);
  });
  it('DE is signed by a DS chaining to CSCA_DE', () => {
    const cs = parseCardSecurity(fixture('real-documents/cardsecurity/EF_CardSecurity_DE.bin'));
    const sig = checkSignerSignature(cs, { expectedContentType: OID.securityObject });
    expect(checkCertificateChain(sig.signer!, own('DE'), AT, sig.signingTime).ok).toBe(true);
  });
  it('last byte 99→98: CMS signature fails', () => {
    const cs = parseCardSecurity(fixture('real-documents/negative/EF_CardSecurity_DE_lastbyte_99to98.bin'));
    expect(checkSignerSignature(cs, { expectedContentType: OID.securityObject })).toMatchObject({ ok: false, signatureOk: false });
  });
});

describe('BSI TR-03105-5 (PROVENANCE §1)', () => {
  const BSI_AT = new Date('2014-06-01T00:00:00Z');
  const dgs = () => new Map([1, 2, 3, 4, 14].map((n) => [n, fixture(`bsi-tr03105-5/Datagroup${n}.bin`)]));
  const sod = fixture('bsi-tr03105-5/EF_SOD.bin');
  it('all presented hashes match; RSASSA-PSS signature verifies', () => {
    const r = verifyDocument({ sod, dataGroups: dgs(), trustStore: deMasterList, at: BSI_AT });
    expect(r.checks.dataGroupHashes.ok).toBe(true);
    expect(r.checks.documentSignature).toMatchObject({ ok: true, signatureAlgorithm: 'rsa-pss-sha256' });
  });
  it('CHAIN against the real German master list', () => {
    expect(statuses(verifyDocument({ sod, dataGroups: dgs(), trustStore: deMasterList, at: BSI_AT }))).toEqual([STATUS.BAD_COUNTRY_SIGNER_CHAIN]);
  });
  it('PASS with its own DS as explicitly trusted anchor, inside the DS validity', () => {
    const r = verifyDocument({ sod, dataGroups: dgs(), trustStore: trusting('bsi-tr03105-5/DSC_HJP_PB_DS_0142fd5cf927.cer'), at: BSI_AT });
    expect(r.status).toBe(STATUS.PASS);
    expect(r.document.mrz?.primaryIdentifier).toBe('MUSTERMANN');
    expect(r.document.faces?.[0].imageType).toBe('JPEG2000');
  });
  it('expired DS without signingTime is judged at the verification time → CHAIN', () => {
    const r = verifyDocument({ sod, trustStore: trusting('bsi-tr03105-5/DSC_HJP_PB_DS_0142fd5cf927.cer'), at: new Date('2020-01-01') });
    expect(r.checks.certificateChain.signingReferenceSource).toBe('verificationTime');
    expect(r.status).toBe(STATUS.BAD_COUNTRY_SIGNER_CHAIN);
  });
  it('DG15 is not in this SOD → HASHES', () => {
    const r = verifyDocument({
      sod,
      dataGroups: new Map([[15, fixture('bsi-tr03105-5/Datagroup15.bin')]]),
      trustStore: trusting('bsi-tr03105-5/DSC_HJP_PB_DS_0142fd5cf927.cer'),
      at: BSI_AT,
    });
    expect(r.checks.dataGroupHashes.results[0].reason).toBe('NOT_IN_SOD');
    expect(r.status).toBe(STATUS.BAD_DOCUMENT_HASHES);
  });
  it('eContentType changed to id-data → SIG (messageDigest still fine)', () => {
    const r = verifyDocument({
      sod: fixture('bsi-tr03105-5/NEG_EF_SOD_econtenttype_id-data.bin'),
      dataGroups: dgs(),
      trustStore: trusting('bsi-tr03105-5/DSC_HJP_PB_DS_0142fd5cf927.cer'),
      at: BSI_AT,
    });
    expect(r.checks.documentSignature).toMatchObject({ messageDigestOk: true, signatureOk: false });
    expect(statuses(r)).toEqual([STATUS.BAD_DOCUMENT_SIGNATURE]);
  });
  it('one trailing byte → strict parse error', () => {
    expect(() => verifyDocument({ sod: fixture('bsi-tr03105-5/NEG_EF_SOD_trailing_byte.bin'), trustStore: deMasterList })).toThrow(Icao9303Error);
  });
  it('the DSC file equals the DSC embedded in the SOD', () => {
    const embedded = DocumentCertificate.fromDer(parseSod(sod).certificates[0]);
    expect(embedded.fingerprint).toBe(DocumentCertificate.fromDer(fixture('bsi-tr03105-5/DSC_HJP_PB_DS_0142fd5cf927.cer')).fingerprint);
  });
});

describe('ETSI TR 103 200 (PROVENANCE §2)', () => {
  const ETSI_AT = new Date('2012-01-01T00:00:00Z');
  const anchor = () => trusting('etsi-tr103200/DSC_ETSI_DS_0130846f2b3e.cer');
  const dgs = (over: Record<number, string> = {}) =>
    new Map<number, Uint8Array>([
      [1, fixture(over[1] ?? 'etsi-tr103200/EF_DG1.bin')],
      [2, fixture('bsi-tr03105-5/Datagroup2.bin')],
      [3, fixture('bsi-tr03105-5/Datagroup3.bin')],
      [4, fixture('bsi-tr03105-5/Datagroup4.bin')],
      [14, fixture(over[14] ?? 'etsi-tr103200/EF_DG14.bin')],
      [15, fixture(over[15] ?? 'etsi-tr103200/EF_DG15.bin')],
    ]);
  const run = (sodPath: string, over?: Record<number, string>, store = anchor()) =>
    verifyDocument({ sod: fixture(sodPath), dataGroups: dgs(over), trustStore: store, at: ETSI_AT });
  it('PASS with its own DS as trust anchor (DG2/3/4 are the BSI files)', () => {
    expect(run('etsi-tr103200/EF_SOD.bin').status).toBe(STATUS.PASS);
  });
  it('CHAIN against the German master list', () => {
    expect(statuses(run('etsi-tr103200/EF_SOD.bin', {}, deMasterList))).toEqual([STATUS.BAD_COUNTRY_SIGNER_CHAIN]);
  });
  it('DG1 hash modified in the SOD → HASHES and SIG', () => {
    const r = run('etsi-tr103200/negative/EF_SOD_dg1hash_modified.bin');
    expect(statuses(r)).toEqual([STATUS.BAD_DOCUMENT_HASHES, STATUS.BAD_DOCUMENT_SIGNATURE].sort());
    expect(r.checks.dataGroupHashes.results.filter((x) => !x.ok).map((x) => x.dataGroup)).toEqual([1]);
    expect(r.checks.documentSignature.messageDigestOk).toBe(false);
    expect(r.status).toBe(STATUS.BAD_DOCUMENT_HASHES);
  });
  it('last signature byte modified → SIG only', () => {
    const r = run('etsi-tr103200/negative/EF_SOD_signature_lastbyte_modified.bin');
    expect(r.checks.documentSignature).toMatchObject({ messageDigestOk: true, signatureOk: false });
    expect(statuses(r)).toEqual([STATUS.BAD_DOCUMENT_SIGNATURE]);
  });
  it('DG14 hash modified in the SOD → HASHES and SIG', () => {
    const r = run('etsi-tr103200/negative/EF_SOD_dg14hash_modified.bin');
    expect(r.checks.dataGroupHashes.results.filter((x) => !x.ok).map((x) => x.dataGroup)).toEqual([14]);
    expect(statuses(r)).toEqual([STATUS.BAD_DOCUMENT_HASHES, STATUS.BAD_DOCUMENT_SIGNATURE].sort());
  });
  it('DG1 with country changed → HASHES only', () => {
    expect(statuses(run('etsi-tr103200/EF_SOD.bin', { 1: 'etsi-tr103200/negative/EF_DG1_country_modified.bin' }))).toEqual([STATUS.BAD_DOCUMENT_HASHES]);
  });
  it('DG15 exponent changed → HASHES only', () => {
    expect(statuses(run('etsi-tr103200/EF_SOD.bin', { 15: 'etsi-tr103200/negative/EF_DG15_exponent_modified.bin' }))).toEqual([STATUS.BAD_DOCUMENT_HASHES]);
  });
  it('hash step alone reports which group differs', () => {
    const check = checkDataGroupHashes(parseSod(fixture('etsi-tr103200/EF_SOD.bin')), dgs({ 1: 'etsi-tr103200/negative/EF_DG1_country_modified.bin' }));
    expect(check.results.map((x) => [x.dataGroup, x.ok])).toEqual([
      [1, false],
      [2, true],
      [3, true],
      [4, true],
      [14, true],
      [15, true],
    ]);
  });
});
