/**
 * Chip Authentication key agreement and KDF against sessions recorded from real documents (PROVENANCE §7,
 * 9303-11 §6.2 / §9.7.1). The recorded terminal key is fed to the internal entry point only to reproduce
 * those sessions: the verifier itself always makes its own ephemeral key.
 */
import {
  parseDg14,
  verifyChipAuthenticationResponse,
  verifyDocument,
  TrustStore,
  fromHex,
  toHex,
  STATUS,
  startChipAuthentication,
} from '@identity-broker/icao9303';
import { startChipAuthenticationWithKey, type ChipAuthTerminalState } from './chipAuth.js';
import { fixture, fixtureJson, flipBit } from '../../test/fixtures.js';

const data = fixtureJson('chip-auth/ca_vectors.json');
const countries = Object.keys(data.vectors);
const keyIdOf = (v: any) => (v.check_result.keyId ? parseInt(v.check_result.keyId, 16) : undefined);

/** The terminal state of the recorded session, positioned just before the recorded response (9303-11 §9.8.3). */
function recordedState(v: any): ChipAuthTerminalState {
  const state = startChipAuthenticationWithKey(fromHex(v.dg14), keyIdOf(v), {}, fromHex(v.evidence.TermPri)).secretState;
  const ssc = fromHex(v.evidence.SmSsc);
  for (let i = ssc.length - 1; i >= 0; i--) {
    ssc[i] = (ssc[i] - 1) & 0xff;
    if (ssc[i] !== 0xff) break;
  }
  return { ...state, ssc: toHex(ssc) };
}

describe('chip authentication against recorded real sessions', () => {
  it('covers AT, DE, MY, FR', () => expect(countries.sort()).toEqual(['AT', 'DE', 'FR', 'MY']));

  it.each(countries)('%s: the terminal public key and session keys equal the recorded ones, and the recorded answer verifies', (c) => {
    const v = data.vectors[c];
    const challenge = startChipAuthenticationWithKey(fromHex(v.dg14), keyIdOf(v), {}, fromHex(v.evidence.TermPri));
    expect(toHex(challenge.terminalPublicKey)).toBe(v.evidence.TermPubKey.toUpperCase());
    expect(challenge.secretState.cipher).toBe(v.sm_after_expected.alg === 'AES' ? 'AES-128' : '3DES');
    expect({ ksEnc: challenge.secretState.ksEnc, ksMac: challenge.secretState.ksMac }).toEqual({
      ksEnc: v.sm_after_expected.ksenc.toUpperCase(),
      ksMac: v.sm_after_expected.ksmac.toUpperCase(),
    });
    expect(verifyChipAuthenticationResponse(recordedState(v), fromHex(v.evidence.SmRapdu)).ok).toBe(true);
  });

  it.each(countries)('%s: DG14 file of the fixture is the one in the vector', (c) => {
    expect(
      Buffer.from(fixture(`real-documents/dg/EF_DG14_${c}.bin`))
        .toString('hex')
        .toUpperCase(),
    ).toBe(data.vectors[c].dg14.toUpperCase());
  });

  it.each(countries)('%s: a corrupted MAC byte → failure', (c) => {
    const v = data.vectors[c];
    const rapdu = fromHex(v.evidence.SmRapdu);
    expect(verifyChipAuthenticationResponse(recordedState(v), flipBit(rapdu, rapdu.length - 4)).ok).toBe(false);
  });

  it.each(countries)('%s: the recorded answer does not verify against a fresh challenge (its keys are new)', (c) => {
    const v = data.vectors[c];
    const fresh = startChipAuthentication(fromHex(v.dg14), keyIdOf(v)).secretState;
    expect(verifyChipAuthenticationResponse({ ...fresh, ssc: recordedState(v).ssc }, fromHex(v.evidence.SmRapdu)).ok).toBe(false);
  });

  it.each(countries)('%s: a fresh challenge is a protected command under new keys with SSC 1 (9303-11 §9.8.4)', (c) => {
    const v = data.vectors[c];
    const a = startChipAuthentication(fromHex(v.dg14), keyIdOf(v));
    const b = startChipAuthentication(fromHex(v.dg14), keyIdOf(v));
    expect(a.secretState.ssc).toMatch(/^0+1$/);
    expect(a.protectedCommand[0]).toBe(0x0c);
    expect(toHex(a.terminalPublicKey)).not.toBe(toHex(b.terminalPublicKey));
    expect(a.secretState.ksMac).not.toBe(b.secretState.ksMac);
    expect(a.keyId).toBe(parseDg14(fromHex(v.dg14)).chipAuthenticationPublicKeys[0].keyId);
  });

  it('verifyDocument: AT passes with the recorded answer; a bad MAC or another DG14 gives CLONE', () => {
    const v = data.vectors.AT;
    const trustStore = new TrustStore();
    trustStore.addCsca(fixture('real-documents/csca/CSCA_AT.cer'));
    const base = {
      sod: fixture('real-documents/sod/EF_SOD_AT.bin'),
      dataGroups: new Map([[14, fixture('real-documents/dg/EF_DG14_AT.bin')]]),
      trustStore,
      at: new Date('2025-06-01'),
    };
    const rapdu = fromHex(v.evidence.SmRapdu);
    expect(verifyDocument({ ...base, chipAuth: { state: recordedState(v), responseApdu: rapdu } }).status).toBe(STATUS.PASS);
    const bad = verifyDocument({ ...base, chipAuth: { state: recordedState(v), responseApdu: flipBit(rapdu, rapdu.length - 3) } });
    expect(bad.status).toBe(STATUS.BAD_CLONE_DETECTION);
    expect(bad.failures.every((f) => f.check === 'chipAuthentication')).toBe(true);
    const otherDg14 = verifyDocument({ ...base, chipAuth: { state: { ...recordedState(v), dg14Sha256: '00'.repeat(32) }, responseApdu: rapdu } });
    expect(otherDg14.failures.map((f) => f.reason).join(' ')).toContain('not the one the Chip Authentication challenge was made for');
  });

  it('verifyDocument without DG14 but with a CA answer → CLONE', () => {
    const trustStore = new TrustStore();
    trustStore.addCsca(fixture('real-documents/csca/CSCA_AT.cer'));
    const v = data.vectors.AT;
    const r = verifyDocument({
      sod: fixture('real-documents/sod/EF_SOD_AT.bin'),
      trustStore,
      at: new Date('2025-06-01'),
      chipAuth: { state: recordedState(v), responseApdu: fromHex(v.evidence.SmRapdu) },
    });
    expect(r.status).toBe(STATUS.BAD_CLONE_DETECTION);
  });
});
