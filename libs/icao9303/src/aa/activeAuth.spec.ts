/** Active Authentication vectors of PROVENANCE §6 (9303-11 §6.1). */
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import {
  parseDg15,
  verifyActiveAuthentication,
  verifyIso9796Scheme1,
  signIso9796Scheme1,
  publicKeyFromSpki,
  fromHex,
  toHex,
  Icao9303Error,
} from '@identity-broker/icao9303';
import { fixture, fixtureJson, flipBit } from '../../test/fixtures.js';

describe('RSA, ISO/IEC 9796-2 scheme 1 (real passport vectors, pymrtd)', () => {
  const dg15 = parseDg15(fixture('active-auth/rsa-pymrtd-real-passport/EF_DG15.bin'));
  const vectors = fixtureJson('active-auth/rsa-pymrtd-real-passport/vectors.json').vectors;
  it.each(vectors.map((v: any, i: number) => [i, v]) as Array<[number, any]>)('vector %s verifies and recovers M1', (_i, v: any) => {
    const r = verifyActiveAuthentication(dg15, fromHex(v.challenge_rnd_ifd), fromHex(v.signature));
    expect(r).toMatchObject({ ok: true, hash: 'sha1' });
    expect(r.recoveredM1).toBe(v.expected_recovered_M1.toUpperCase());
  });
  it.each(vectors.map((v: any, i: number) => [i, v]) as Array<[number, any]>)(
    'vector %s fails with one signature bit flipped or a changed challenge',
    (_i, v: any) => {
      const sig = fromHex(v.signature);
      for (const pos of [0, 17, sig.length - 1]) expect(verifyActiveAuthentication(dg15, fromHex(v.challenge_rnd_ifd), flipBit(sig, pos, 3)).ok).toBe(false);
      expect(verifyActiveAuthentication(dg15, flipBit(fromHex(v.challenge_rnd_ifd), 7), sig).ok).toBe(false);
    },
  );
});

describe('RSA (rarimo vector)', () => {
  const v = fixtureJson('active-auth/rsa-rarimo/vectors.json');
  const key = createPublicKey({ key: { kty: 'RSA', n: Buffer.from(v.modulus, 'hex').toString('base64url'), e: 'AQAB' }, format: 'jwk' });
  it('verifies; a flipped bit fails', () => {
    expect(verifyIso9796Scheme1(key, fromHex(v.signature), fromHex(v.challenge)).ok).toBe(true);
    expect(verifyIso9796Scheme1(key, flipBit(fromHex(v.signature), 40), fromHex(v.challenge)).ok).toBe(false);
  });
});

describe('RSA (BouncyCastle ISO9796Test vector)', () => {
  const v = fixtureJson('active-auth/rsa-iso9796-2-bouncycastle/vectors.json');
  const key = publicKeyFromSpki(fixture('active-auth/rsa-iso9796-2-bouncycastle/pubkey_spki.der')).key!;
  it('verifies and recovers M1; a flipped bit fails', () => {
    const r = verifyIso9796Scheme1(key, fromHex(v.signature), fromHex(v.message));
    expect(r.ok).toBe(true);
    expect(toHex(r.recovered!)).toBe(v.expected_recovered_M1.toUpperCase());
    expect(verifyIso9796Scheme1(key, flipBit(fromHex(v.signature), 100, 1), fromHex(v.message)).ok).toBe(false);
  });
});

describe('ECDSA brainpoolP256r1 plain r||s (rarimo vector)', () => {
  const v = fixtureJson('active-auth/ecdsa-brainpoolP256r1-rarimo/vectors.json');
  const dg15 = { publicKey: publicKeyFromSpki(fixture('active-auth/ecdsa-brainpoolP256r1-rarimo/pubkey_spki.der')) };
  it('verifies with SHA-1 (found by trying when DG14 names no algorithm)', () => {
    expect(verifyActiveAuthentication(dg15, fromHex(v.challenge), fromHex(v.signature_plain_r_s))).toMatchObject({
      ok: true,
      algorithm: 'ECDSA',
      hash: 'sha1',
    });
  });
  it('does not verify with SHA-256 forced', () => {
    expect(verifyActiveAuthentication(dg15, fromHex(v.challenge), fromHex(v.signature_plain_r_s), { hash: 'sha256' }).ok).toBe(false);
  });
  it('fails with one bit flipped anywhere in the signature or challenge', () => {
    const sig = fromHex(v.signature_plain_r_s);
    for (const pos of [0, 31, 32, 63]) expect(verifyActiveAuthentication(dg15, fromHex(v.challenge), flipBit(sig, pos)).ok).toBe(false);
    expect(verifyActiveAuthentication(dg15, flipBit(fromHex(v.challenge), 0), sig).ok).toBe(false);
  });
});

describe('ICAO 9303-11 worked example (message representative F only)', () => {
  const v = fixtureJson('active-auth/icao-9303-p11-worked-example/vectors.json');
  it('F = 6A || M1 || SHA-1(M1 || RND.IFD) || BC', () => {
    expect(v.F).toBe(`6A${v.M1}${v.H_sha1_M1_RNDIFD}BC`);
  });
  it('our signer builds exactly that F with the given M1 (opened with the public key)', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const sig = signIso9796Scheme1(privateKey, 128, fromHex(v.RND_IFD), 'sha1', fromHex(v.M1));
    const r = verifyIso9796Scheme1(publicKey, sig, fromHex(v.RND_IFD));
    expect(r.ok).toBe(true);
    expect(toHex(r.recovered!)).toBe(v.M1);
  });
});

describe('ISO/IEC 9796-2 explicit trailers (SHA-224..SHA-512)', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  it.each(['sha224', 'sha256', 'sha384', 'sha512'])('%s round-trips and rejects a flipped bit', (hash) => {
    const challenge = fromHex('0102030405060708');
    const sig = signIso9796Scheme1(privateKey, 256, challenge, hash);
    expect(verifyIso9796Scheme1(publicKey, sig, challenge)).toMatchObject({ ok: true, hash });
    expect(verifyIso9796Scheme1(publicKey, flipBit(sig, 200), challenge).ok).toBe(false);
  });
  it('rejects a challenge that is not 8 bytes', () => {
    const dg15 = { publicKey: publicKeyFromSpki(new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }))) };
    expect(() => verifyActiveAuthentication(dg15, new Uint8Array(4), new Uint8Array(256))).toThrow(Icao9303Error);
  });
});
