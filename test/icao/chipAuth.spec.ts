/** Chip Authentication sessions recorded from real documents (PROVENANCE §7, 9303-11 §6.2 / §9.7.1). */
import { parseDg14, verifyChipAuthentication, verifyDocument, TrustStore, fromHex, STATUS } from '../../libs/icao9303/src/index.js';
import { fixture, fixtureJson, flipBit } from './fixtures.js';

const data = fixtureJson('chip-auth/ca_vectors.json');
const countries = Object.keys(data.vectors);
const evidenceOf = (v: any, over: Partial<{ responseApdu: Uint8Array; terminalPrivateKey: Uint8Array }> = {}) => ({
  terminalPrivateKey: fromHex(v.evidence.TermPri),
  responseApdu: fromHex(v.evidence.SmRapdu),
  ssc: fromHex(v.evidence.SmSsc),
  keyId: v.check_result.keyId ? parseInt(v.check_result.keyId, 16) : undefined,
  ...over,
});

describe('chip authentication evidence', () => {
  it('covers AT, DE, MY, FR', () => expect(countries.sort()).toEqual(['AT', 'DE', 'FR', 'MY']));

  it.each(countries)('%s: session keys equal the recorded ones and the evidence MAC verifies', (c) => {
    const v = data.vectors[c];
    const r = verifyChipAuthentication(parseDg14(fromHex(v.dg14)), evidenceOf(v));
    expect(r.ok).toBe(true);
    expect(r.cipher).toBe(v.sm_after_expected.alg === 'AES' ? 'AES-128' : '3DES');
    expect(r.sessionKeys).toEqual({ ksEnc: v.sm_after_expected.ksenc.toUpperCase(), ksMac: v.sm_after_expected.ksmac.toUpperCase() });
  });

  it.each(countries)('%s: DG14 file of the fixture is the one in the vector', (c) => {
    expect(Buffer.from(fixture(`real-documents/dg/EF_DG14_${c}.bin`)).toString('hex').toUpperCase()).toBe(data.vectors[c].dg14.toUpperCase());
  });

  it.each(countries)('%s: a corrupted MAC byte → failure', (c) => {
    const v = data.vectors[c];
    const rapdu = fromHex(v.evidence.SmRapdu);
    const r = verifyChipAuthentication(parseDg14(fromHex(v.dg14)), evidenceOf(v, { responseApdu: flipBit(rapdu, rapdu.length - 4) }));
    expect(r.ok).toBe(false);
  });

  it.each(countries)("%s: another country's DG14 → failure", (c) => {
    const v = data.vectors[c];
    const other = data.vectors[countries[(countries.indexOf(c) + 1) % countries.length]];
    expect(verifyChipAuthentication(parseDg14(fromHex(other.dg14)), { ...evidenceOf(v), keyId: undefined }).ok).toBe(false);
  });

  it('a different terminal private key → failure', () => {
    const v = data.vectors.AT;
    expect(verifyChipAuthentication(parseDg14(fromHex(v.dg14)), evidenceOf(v, { terminalPrivateKey: flipBit(fromHex(v.evidence.TermPri), 31) })).ok).toBe(false);
  });

  it('verifyDocument: AT passes with CA evidence; a bad MAC gives CLONE', () => {
    const v = data.vectors.AT;
    const trustStore = new TrustStore();
    trustStore.addCsca(fixture('real-documents/csca/CSCA_AT.cer'));
    const base = { sod: fixture('real-documents/sod/EF_SOD_AT.bin'), dataGroups: new Map([[14, fixture('real-documents/dg/EF_DG14_AT.bin')]]), trustStore, at: new Date('2025-06-01') };
    expect(verifyDocument({ ...base, chipAuth: evidenceOf(v) }).status).toBe(STATUS.PASS);
    const rapdu = fromHex(v.evidence.SmRapdu);
    const bad = verifyDocument({ ...base, chipAuth: evidenceOf(v, { responseApdu: flipBit(rapdu, rapdu.length - 3) }) });
    expect(bad.status).toBe(STATUS.BAD_CLONE_DETECTION);
    expect(bad.failures.every((f) => f.check === 'chipAuthentication')).toBe(true);
  });

  it('verifyDocument without DG14 but with CA evidence → CLONE', () => {
    const trustStore = new TrustStore();
    trustStore.addCsca(fixture('real-documents/csca/CSCA_AT.cer'));
    const r = verifyDocument({ sod: fixture('real-documents/sod/EF_SOD_AT.bin'), trustStore, at: new Date('2025-06-01'), chipAuth: evidenceOf(data.vectors.AT) });
    expect(r.status).toBe(STATUS.BAD_CLONE_DETECTION);
  });
});
