/** DH-based Chip Authentication (9303-11 §9.7.1, X9.42 keys): no real vectors exist, so a synthetic session is built. */
import { getDiffieHellman } from 'node:crypto';
import * as asn1js from 'asn1js';
import { parseDg14, verifyChipAuthentication, SecureMessaging, deriveKey, Icao9303Error } from '../../libs/icao9303/src/index.js';
import { encodeTlv } from '../../libs/icao9303/src/util/tlv.js';

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
  const terminal = getDiffieHellman('modp2');
  terminal.generateKeys();
  const p = chip.getPrime();
  const q = Buffer.from(((BigInt(`0x${p.toString('hex')}`) - 1n) / 2n).toString(16), 'hex');
  const dg14 = parseDg14(dhDg14(p, chip.getGenerator(), q, chip.getPublicKey(), true));

  // the chip's first response under the new AES-128 keys, SSC = 0…01 before the response
  const z = new Uint8Array(chip.computeSecret(terminal.getPublicKey()));
  const chipSm = new SecureMessaging('AES-128', deriveKey(z, 1, 'AES-128'), deriveKey(z, 2, 'AES-128'), Uint8Array.from({ length: 16 }, (_, i) => (i === 15 ? 1 : 0)));
  const response = chipSm.protectResponse(new Uint8Array(0), 0x9000);
  const ssc = chipSm.ssc;

  it('DG14 holds a DH key and an id-CA-DH-AES-CBC-CMAC-128 info', () => {
    expect(dg14.chipAuthenticationPublicKeys[0].publicKey.kind).toBe('DH');
    expect(dg14.chipAuthenticationInfos[0]).toMatchObject({ keyAgreement: 'DH', cipher: 'AES-128' });
  });
  it('the evidence verifies with the terminal private key', () => {
    const r = verifyChipAuthentication(dg14, { terminalPrivateKey: new Uint8Array(terminal.getPrivateKey()), responseApdu: response, ssc });
    expect(r).toMatchObject({ ok: true, cipher: 'AES-128' });
  });
  it('a wrong terminal key or altered MAC fails', () => {
    const other = getDiffieHellman('modp2');
    other.generateKeys();
    expect(verifyChipAuthentication(dg14, { terminalPrivateKey: new Uint8Array(other.getPrivateKey()), responseApdu: response, ssc }).ok).toBe(false);
    const bad = response.slice();
    bad[bad.length - 3] ^= 0x80;
    expect(verifyChipAuthentication(dg14, { terminalPrivateKey: new Uint8Array(terminal.getPrivateKey()), responseApdu: bad, ssc }).ok).toBe(false);
  });
  it('without ChipAuthenticationInfo the legacy 3DES default does not match an AES session', () => {
    const noInfo = parseDg14(dhDg14(p, chip.getGenerator(), q, chip.getPublicKey(), false));
    expect(verifyChipAuthentication(noInfo, { terminalPrivateKey: new Uint8Array(terminal.getPrivateKey()), responseApdu: response, ssc: ssc.subarray(8) }).ok).toBe(false);
    expect(verifyChipAuthentication(noInfo, { terminalPrivateKey: new Uint8Array(terminal.getPrivateKey()), responseApdu: response, ssc, cipher: 'AES-128' }).ok).toBe(true);
  });
  it('a malformed DG14 is a typed error', () => {
    expect(() => parseDg14(new Uint8Array([0x6e, 0x02, 0x31, 0x05]))).toThrow(Icao9303Error);
  });
});
