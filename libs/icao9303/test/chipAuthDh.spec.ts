/** DH-based Chip Authentication (9303-11 §9.7.1, X9.42 keys): no real vectors exist, so a synthetic chip is built. */
import { getDiffieHellman } from 'node:crypto';
import * as asn1js from 'asn1js';
import {
  parseDg14,
  startChipAuthentication,
  verifyChipAuthenticationResponse,
  SecureMessaging,
  deriveKey,
  Icao9303Error,
  answerChipAuthentication,
  type ChipAuthChipKey,
} from '@identity-broker/icao9303';
import { encodeTlv } from '../src/util/tlv.js';

const int = (b: Uint8Array) => new asn1js.Integer({ valueHex: new Uint8Array([0, ...b]).buffer });

function dhDg14(p: Buffer, g: Buffer, q: Buffer, y: Buffer, withInfo: boolean): Uint8Array {
  // SubjectPublicKeyInfo { dhpublicnumber, DomainParameters { p, g, q } }, public value as INTEGER (RFC 3279 §2.3.3)
  const spki = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: '1.2.840.10046.2.1' }), new asn1js.Sequence({ value: [int(p), int(g), int(q)] })] }),
      new asn1js.BitString({ valueHex: int(y).toBER() }),
    ],
  });
  const pkInfo = new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: '0.4.0.127.0.7.2.2.1.1' }), spki] });
  const caInfo = new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: '0.4.0.127.0.7.2.2.3.1.2' }), new asn1js.Integer({ value: 1 })] });
  return encodeTlv(0x6e, new Uint8Array(new asn1js.Set({ value: withInfo ? [pkInfo, caInfo] : [pkInfo] }).toBER()));
}

describe('DH chip authentication', () => {
  const chip = getDiffieHellman('modp2');
  chip.generateKeys();
  const p = chip.getPrime();
  const prime = BigInt(`0x${p.toString('hex')}`);
  const q = Buffer.from(((prime - 1n) / 2n).toString(16), 'hex');
  const dg14Bytes = dhDg14(p, chip.getGenerator(), q, chip.getPublicKey(), true);
  const chipKey: ChipAuthChipKey = { keyAgreement: 'DH', privateKey: new Uint8Array(chip.getPrivateKey()), prime, cipher: 'AES-128' };

  it('DG14 holds a DH key and an id-CA-DH-AES-CBC-CMAC-128 info', () => {
    const dg14 = parseDg14(dg14Bytes);
    expect(dg14.chipAuthenticationPublicKeys[0].publicKey.kind).toBe('DH');
    expect(dg14.chipAuthenticationInfos[0]).toMatchObject({ keyAgreement: 'DH', cipher: 'AES-128' });
  });

  it('the terminal public key is g^x mod p with the length of p, and Node agrees on Z', () => {
    const c = startChipAuthentication(dg14Bytes);
    expect(c.terminalPublicKey.length).toBe(p.length);
    const z = new Uint8Array(chip.computeSecret(Buffer.from(c.terminalPublicKey)));
    expect(
      Buffer.from(deriveKey(z, 2, 'AES-128'))
        .toString('hex')
        .toUpperCase(),
    ).toBe(c.secretState.ksMac);
  });

  it('the chip holding the DH private key answers and the answer verifies', () => {
    const c = startChipAuthentication(dg14Bytes);
    const r = verifyChipAuthenticationResponse(c.secretState, answerChipAuthentication(chipKey, c.terminalPublicKey, c.protectedCommand));
    expect(r).toMatchObject({ ok: true, cipher: 'AES-128', statusWord: '9000' });
  });

  it('a clone with its own DH key on the same group cannot answer; nor can an answer to another challenge', () => {
    const c = startChipAuthentication(dg14Bytes);
    const own = getDiffieHellman('modp2');
    own.generateKeys();
    const forged = answerChipAuthentication({ ...chipKey, privateKey: new Uint8Array(own.getPrivateKey()) }, c.terminalPublicKey, c.protectedCommand);
    expect(verifyChipAuthenticationResponse(c.secretState, forged).ok).toBe(false);
    // the old attack: the terminal key is the attacker's, the answer MAC'd under keys from it
    const z = new Uint8Array(own.computeSecret(chip.getPublicKey()));
    const sm = new SecureMessaging(
      'AES-128',
      deriveKey(z, 1, 'AES-128'),
      deriveKey(z, 2, 'AES-128'),
      Uint8Array.from({ length: 16 }, (_, i) => (i === 15 ? 1 : 0)),
    );
    expect(verifyChipAuthenticationResponse(c.secretState, sm.protectResponse(new Uint8Array(0), 0x9000)).ok).toBe(false);
    const other = startChipAuthentication(dg14Bytes);
    expect(verifyChipAuthenticationResponse(other.secretState, answerChipAuthentication(chipKey, c.terminalPublicKey, c.protectedCommand)).ok).toBe(false);
  });

  it('without ChipAuthenticationInfo the legacy 3DES default is used unless the cipher is given', () => {
    const noInfo = dhDg14(p, chip.getGenerator(), q, chip.getPublicKey(), false);
    const legacy = startChipAuthentication(noInfo);
    expect(legacy.secretState.cipher).toBe('3DES');
    expect(
      verifyChipAuthenticationResponse(
        legacy.secretState,
        answerChipAuthentication({ ...chipKey, cipher: '3DES' }, legacy.terminalPublicKey, legacy.protectedCommand),
      ).ok,
    ).toBe(true);
    const aes = startChipAuthentication(noInfo, undefined, { cipher: 'AES-128' });
    expect(verifyChipAuthenticationResponse(aes.secretState, answerChipAuthentication(chipKey, aes.terminalPublicKey, aes.protectedCommand)).ok).toBe(true);
  });

  it('refuses domain parameters that would cost minutes of CPU or make Z guessable (typed errors)', () => {
    const huge = Buffer.concat([Buffer.from([0xff]), Buffer.alloc(1023, 0xab)]); // 8192-bit "p"
    expect(() => startChipAuthentication(dhDg14(huge, chip.getGenerator(), q, chip.getPublicKey(), true))).toThrow(/p has 8192 bits/);
    expect(() => startChipAuthentication(dhDg14(p, chip.getGenerator(), q, Buffer.from([1]), true))).toThrow(/y is not in \[2, p-2\]/);
    expect(() => startChipAuthentication(dhDg14(p, Buffer.from([1]), q, chip.getPublicKey(), true))).toThrow(Icao9303Error);
  });

  it('a malformed DG14 is a typed error', () => {
    expect(() => parseDg14(new Uint8Array([0x6e, 0x02, 0x31, 0x05]))).toThrow(Icao9303Error);
    expect(() => startChipAuthentication(new Uint8Array([0x6e, 0x02, 0x31, 0x05]))).toThrow(Icao9303Error);
  });
});
