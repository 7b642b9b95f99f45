/**
 * The verifier as Chip Authentication terminal (9303-11 §6.2, §9.7.1, §9.8) against a specimen chip that holds
 * its DG14 private key: only that key answers the server's challenge with a MAC that verifies.
 */
import { createECDH, generateKeyPairSync } from 'node:crypto';
import {
  parseDg14,
  startChipAuthentication,
  verifyChipAuthenticationResponse,
  verifyDocument,
  deriveKey,
  SecureMessaging,
  STATUS,
  Icao9303Error,
  answerChipAuthentication,
  createSpecimenAuthority,
  issueSpecimenDocument,
  type SpecimenAuthority,
  type SpecimenDocument,
} from '@identity-broker/icao9303';
import { decodeCommand } from '../src/sm/apdu.js';

describe('chip authentication: the verifier is the terminal', () => {
  let authority: SpecimenAuthority;
  let doc: SpecimenDocument;
  let dg14: Uint8Array;

  beforeAll(async () => {
    authority = await createSpecimenAuthority();
    doc = await issueSpecimenDocument(authority, { activeAuthentication: false, chipAuthentication: true });
    dg14 = doc.dataGroups.get(14)!;
  });

  it('the specimen DG14 holds a P-256 ECDH key and an id-CA-ECDH-AES-CBC-CMAC-128 info; no DG15', () => {
    const parsed = parseDg14(dg14);
    expect(parsed.chipAuthenticationPublicKeys[0].publicKey).toMatchObject({ kind: 'EC', curve: 'prime256v1' });
    expect(parsed.chipAuthenticationInfos[0]).toMatchObject({ keyAgreement: 'ECDH', cipher: 'AES-128', version: 1 });
    expect(doc.dataGroups.has(15)).toBe(false);
  });

  it('the genuine chip answers the challenge and the answer verifies', () => {
    const c = startChipAuthentication(dg14);
    const response = answerChipAuthentication(doc.chipAuthKey!, c.terminalPublicKey, c.protectedCommand);
    expect(verifyChipAuthenticationResponse(c.secretState, response)).toMatchObject({ ok: true, cipher: 'AES-128', curve: 'prime256v1', statusWord: '9000' });
    expect(
      verifyDocument({
        sod: doc.sod,
        dataGroups: doc.dataGroups,
        trustStore: authority.trustStore(),
        chipAuth: { state: c.secretState, responseApdu: response },
      }).status,
    ).toBe(STATUS.PASS);
  });

  it('a 3DES chip with key ids answers too (the DO84 key id is returned for the key agreement)', async () => {
    const tdes = await issueSpecimenDocument(authority, { activeAuthentication: false, chipAuthentication: { cipher: '3DES', keyId: 7 } });
    const c = startChipAuthentication(tdes.dataGroups.get(14)!, 7);
    expect(c.keyId).toBe(7);
    expect(verifyChipAuthenticationResponse(c.secretState, answerChipAuthentication(tdes.chipAuthKey!, c.terminalPublicKey, c.protectedCommand)).ok).toBe(true);
    expect(() => startChipAuthentication(tdes.dataGroups.get(14)!, 8)).toThrow(Icao9303Error);
  });

  it('a clone that knows DG14 and the terminal public key, with a fresh key pair of its own, cannot answer', () => {
    const c = startChipAuthentication(dg14);
    // The obvious forgery: the clone's own key agreement with the terminal key, then the chip's protocol.
    const own = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const forged = answerChipAuthentication({ keyAgreement: 'ECDH', privateKey: own.privateKey, cipher: 'AES-128' }, c.terminalPublicKey, c.protectedCommand);
    expect(verifyChipAuthenticationResponse(c.secretState, forged).ok).toBe(false);
    // It cannot even read the command: the MAC under its keys fails, a real chip would answer 6988.
    expect(Buffer.from(forged).toString('hex')).toBe('6988');
  });

  it('a clone that makes its own terminal key and MACs under the keys it derives (the old app-supplied-key attack) fails', () => {
    const c = startChipAuthentication(dg14);
    const chipKey = parseDg14(dg14).chipAuthenticationPublicKeys[0].publicKey;
    const attacker = createECDH('prime256v1');
    attacker.generateKeys();
    const z = new Uint8Array(attacker.computeSecret(Buffer.from(chipKey.publicKeyBytes)));
    const sm = new SecureMessaging(
      'AES-128',
      deriveKey(z, 1, 'AES-128'),
      deriveKey(z, 2, 'AES-128'),
      Uint8Array.from({ length: 16 }, (_, i) => (i === 15 ? 1 : 0)),
    );
    const forged = sm.protectResponse(new Uint8Array(0), 0x9000);
    expect(verifyChipAuthenticationResponse(c.secretState, forged).ok).toBe(false);
  });

  it("an answer to another session's challenge fails, and so does a replayed answer", () => {
    const a = startChipAuthentication(dg14);
    const b = startChipAuthentication(dg14);
    const answerA = answerChipAuthentication(doc.chipAuthKey!, a.terminalPublicKey, a.protectedCommand);
    expect(verifyChipAuthenticationResponse(b.secretState, answerA).ok).toBe(false);
    // the genuine chip fed session A's command after session B's key cannot answer it either
    expect(Buffer.from(answerChipAuthentication(doc.chipAuthKey!, b.terminalPublicKey, a.protectedCommand)).toString('hex')).toBe('6988');
  });

  it('the command is a SELECT of EF.COM under the new keys (SSC 1), readable only with them', () => {
    const c = startChipAuthentication(dg14);
    const sm = new SecureMessaging('AES-128', Buffer.from(c.secretState.ksEnc, 'hex'), Buffer.from(c.secretState.ksMac, 'hex'), new Uint8Array(16));
    expect(sm.unprotectCommand(c.protectedCommand)).toMatchObject({ ins: 0xa4, p1: 0x02, p2: 0x0c, data: new Uint8Array([0x01, 0x1e]) });
    expect(decodeCommand(c.protectedCommand).cla).toBe(0x0c);
  });

  it('verifyDocument: the DG14 presented must be the one the challenge was made for', async () => {
    const other = await issueSpecimenDocument(authority, { activeAuthentication: false, chipAuthentication: true });
    const c = startChipAuthentication(other.dataGroups.get(14)!);
    const response = answerChipAuthentication(other.chipAuthKey!, c.terminalPublicKey, c.protectedCommand);
    const r = verifyDocument({
      sod: doc.sod,
      dataGroups: doc.dataGroups,
      trustStore: authority.trustStore(),
      chipAuth: { state: c.secretState, responseApdu: response },
    });
    expect(r.status).toBe(STATUS.BAD_CLONE_DETECTION);
    expect(r.failures.map((f) => f.reason).join(' ')).toContain('not the one the Chip Authentication challenge was made for');
  });

  it('a DG14 without a chip authentication key cannot start a challenge (typed error)', async () => {
    const aaOnly = await issueSpecimenDocument(authority, { activeAuthentication: 'EC' });
    expect(() => startChipAuthentication(aaOnly.dataGroups.get(14)!)).toThrow(Icao9303Error);
  });
});
