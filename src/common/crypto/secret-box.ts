import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { InternalError } from '../errors/app-error.js';

/** Sealed data or keys that do not fit: never the client's fault, never told to it. */
export class SecretBoxError extends InternalError {}

const VERSION = 'v1';

/**
 * AES-256-GCM envelope for data at rest: `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts).
 * The key id travels with each value so that keys can be rotated: new writes use the current key,
 * old values stay readable while their key is listed in DATA_ENCRYPTION_OLD_KEYS.
 * `context` is bound as additional authenticated data so that a value cannot be moved to another row or column.
 */
export class SecretBox {
  /** As key objects, made once: a raw key handed to each cipher is imported again every time (hot-path CPU). */
  private readonly keys: ReadonlyMap<string, KeyObject>;

  constructor(
    private readonly currentKeyId: string,
    rawKeys: ReadonlyMap<string, Buffer>,
  ) {
    for (const [id, key] of rawKeys) if (key.length !== 32) throw new SecretBoxError(`encryption key ${id} is not 32 bytes`);
    if (!rawKeys.has(currentKeyId)) throw new SecretBoxError(`current encryption key ${currentKeyId} is missing`);
    this.keys = new Map([...rawKeys].map(([id, key]) => [id, createSecretKey(key)]));
  }

  encrypt(plain: Buffer | string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(typeof plain === 'string' ? Buffer.from(plain) : plain), cipher.final()]);
    return [VERSION, this.currentKeyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  decrypt(sealed: string, context: string): Buffer {
    const [version, keyId, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || body === undefined) throw new SecretBoxError('not a sealed value');
    const key = this.keys.get(keyId);
    if (!key) throw new SecretBoxError(`encryption key ${keyId} is not configured`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
    } catch {
      throw new SecretBoxError('sealed value failed authentication');
    }
  }

  decryptText(sealed: string, context: string): string {
    return this.decrypt(sealed, context).toString('utf8');
  }

  keyIdOf(sealed: string): string {
    return sealed.split('.')[1];
  }

  get currentKey(): string {
    return this.currentKeyId;
  }
}
