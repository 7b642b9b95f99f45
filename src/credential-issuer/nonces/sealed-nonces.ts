import { hkdfSync, randomBytes } from 'node:crypto';
import { type CryptoKey, EncryptJWT, jwtDecrypt } from 'jose';

/** A nonce this service made, opened: what its single use is kept under, and until when it could pass. */
export interface OpenedNonce {
  /** Random, from inside the encryption: the same nonce written differently (base64url has spare bits) has the same id. */
  id: string;
  expiresAtMs: number;
}

// HKDF's salt is fixed (the input is already a uniformly random key); the purpose goes into its info, so each purpose
// has a key of its own, and neither that key nor DATA_ENCRYPTION_KEY itself ever encrypts the other's values.
const HKDF_SALT = 'broker stateless nonces v1';
const ALG = 'dir';
const ENC = 'A256GCM';
/** A sealed nonce is about 180 characters; anything much longer is not one of ours, and is not worth decrypting. */
const MAX_CHARS = 512;
const COMPACT_JWE = /^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Nonces that need no storage until they are used: a compact JWE (`dir`, A256GCM, jose) of a purpose, a random id and
 * an expiry, under a key derived with HKDF from the data encryption key and the purpose. Only this service can make
 * one, and none can be altered (AES-GCM authenticates every part), so the nonce endpoint writes nothing; single use is
 * the spender's (SpentValues), for the nonces someone actually presents. The key id travels in the JWE header, as
 * with SecretBox: new nonces use DATA_ENCRYPTION_KEY_ID's key, and nonces made under a key now listed in
 * DATA_ENCRYPTION_OLD_KEYS still open until they expire, so a rotation refuses no nonce in flight.
 */
export class SealedNonces {
  private readonly keys: Promise<ReadonlyMap<string, CryptoKey>>;

  constructor(
    private readonly purpose: string,
    private readonly currentKeyId: string,
    rawKeys: ReadonlyMap<string, Buffer>,
  ) {
    if (!rawKeys.has(currentKeyId)) throw new Error(`current encryption key ${currentKeyId} is missing`);
    this.keys = importKeys(purpose, rawKeys);
  }

  async seal(now: Date, seconds: number): Promise<string> {
    const key = (await this.keys).get(this.currentKeyId)!;
    return new EncryptJWT({ purpose: this.purpose })
      .setProtectedHeader({ alg: ALG, enc: ENC, kid: this.currentKeyId })
      .setJti(randomBytes(16).toString('base64url'))
      .setExpirationTime(Math.floor(now.getTime() / 1000) + seconds)
      .encrypt(key);
  }

  /** The nonce, when this service made it for this purpose, nobody changed it, and it has not expired; else undefined. */
  async open(value: unknown, now: Date): Promise<OpenedNonce | undefined> {
    if (typeof value !== 'string' || value.length > MAX_CHARS || !COMPACT_JWE.test(value)) return undefined;
    const keys = await this.keys;
    try {
      const { payload } = await jwtDecrypt(
        value,
        (header) => {
          const key = typeof header.kid === 'string' ? keys.get(header.kid) : undefined;
          if (!key) throw new Error('not a key of this service');
          return key;
        },
        { keyManagementAlgorithms: [ALG], contentEncryptionAlgorithms: [ENC], currentDate: now, requiredClaims: ['jti', 'exp'] },
      );
      // A nonce of another purpose does not even decrypt (another key); the claim is checked all the same.
      if (payload.purpose !== this.purpose || typeof payload.jti !== 'string') return undefined;
      return { id: payload.jti, expiresAtMs: payload.exp! * 1000 };
    } catch {
      // Every failure here is the input's: not a JWE, another key, altered, expired. The caller answers one refusal.
      return undefined;
    }
  }
}

async function importKeys(purpose: string, rawKeys: ReadonlyMap<string, Buffer>): Promise<ReadonlyMap<string, CryptoKey>> {
  const keys = new Map<string, CryptoKey>();
  for (const [id, raw] of rawKeys) {
    const derived = Buffer.from(hkdfSync('sha256', raw, HKDF_SALT, `nonce:${purpose}`, 32));
    // Imported once: handing jose raw bytes would import the key again on every call.
    keys.set(id, await crypto.subtle.importKey('raw', derived, 'AES-GCM', false, ['encrypt', 'decrypt']));
  }
  return keys;
}
