import { Injectable, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { DataSource, Repository } from 'typeorm';
import { SecretBox } from '../../../common/crypto/secret-box.js';
import { UpstreamClientKeyEntity, type UpstreamKeyAlg } from './upstream-client-key.entity.js';

/** The key pairs the broker holds as a client of upstreams: one per algorithm it offers. */
export const UPSTREAM_KEY_KINDS: ReadonlyArray<{ use: 'sig' | 'enc'; alg: UpstreamKeyAlg }> = [
  { use: 'sig', alg: 'RS256' },
  { use: 'sig', alg: 'ES256' },
  { use: 'enc', alg: 'RSA-OAEP-256' },
  { use: 'enc', alg: 'ECDH-ES' },
];
export const CLIENT_ASSERTION_ALGS = ['RS256', 'ES256'] as const;
/** What an upstream may encrypt ID tokens to our keys with (key management; one P-256 key serves every ECDH-ES variant). */
export const ID_TOKEN_ENCRYPTION_ALGS = ['RSA-OAEP-256', 'ECDH-ES', 'ECDH-ES+A128KW', 'ECDH-ES+A256KW'] as const;
export const ID_TOKEN_ENCRYPTION_ENCS = ['A128GCM', 'A256GCM', 'A128CBC-HS256', 'A256CBC-HS512'] as const;

const ADVISORY_LOCK = 734_014;
const context = (kid: string) => `upstream-client-key:${kid}`;
const PUBLIC_MEMBERS = ['kty', 'crv', 'x', 'y', 'n', 'e'] as const;

/**
 * The broker's keys toward upstream providers, shared by every instance. Sealed in the database like the
 * ID token signing keys (oidc/keys), not derived from a configured secret with HKDF: a deterministic
 * derivation only works for EC keys (RSA key generation is not a function of a seed in Node), while
 * ID-porten and most BankID gateways expect RS256 assertions and RSA-OAEP encryption; a stored key is also
 * independent of the secrets' own rotation (DATA_ENCRYPTION_KEY re-seals it, it does not change it), so an
 * upstream's registration of our jwks_uri stays valid. Keys are made once, at the first start, under an
 * advisory lock so two starting instances do not both make them.
 */
@Injectable()
export class UpstreamClientKeysService implements OnModuleInit {
  private readonly repo: Repository<UpstreamClientKeyEntity>;
  private loaded?: Promise<JWK[]>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
  ) {
    this.repo = dataSource.getRepository(UpstreamClientKeyEntity);
  }

  async onModuleInit(): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK]);
      const repo = tx.getRepository(UpstreamClientKeyEntity);
      const present = await repo.find({ select: { use: true, alg: true } });
      for (const kind of UPSTREAM_KEY_KINDS) {
        if (!present.some((k) => k.use === kind.use && k.alg === kind.alg)) await repo.insert(await this.generate(kind.use, kind.alg));
      }
    });
  }

  /** The public keys, as GET /its/eid/jwks publishes them. */
  async publicJwks(): Promise<{ keys: JWK[] }> {
    const keys = await this.privateJwks();
    return {
      keys: keys.map((k) => ({
        ...Object.fromEntries(PUBLIC_MEMBERS.filter((m) => k[m] !== undefined).map((m) => [m, k[m]])),
        kid: k.kid,
        use: k.use,
        ...(publishedAlg(k) ? { alg: k.alg } : {}),
      })),
    };
  }

  /** The key that signs private_key_jwt client assertions with `alg` (its kid goes into the assertion header). */
  async signingKey(alg: (typeof CLIENT_ASSERTION_ALGS)[number]): Promise<{ key: CryptoKey; kid: string }> {
    const jwk = (await this.privateJwks()).find((k) => k.use === 'sig' && k.alg === alg);
    if (!jwk) throw new Error(`no upstream client signing key for ${alg}`);
    return { key: (await importJWK(jwk, alg)) as CryptoKey, kid: jwk.kid! };
  }

  /**
   * The key an upstream encrypts ID tokens to with `alg`, bound to that alg and our kid: openid-client then
   * refuses a token under another algorithm or addressed to another key.
   */
  async decryptionKey(alg: (typeof ID_TOKEN_ENCRYPTION_ALGS)[number]): Promise<{ key: CryptoKey; alg: string; kid: string }> {
    const keyAlg = alg.startsWith('ECDH-ES') ? 'ECDH-ES' : alg;
    const jwk = (await this.privateJwks()).find((k) => k.use === 'enc' && k.alg === keyAlg);
    if (!jwk) throw new Error(`no upstream decryption key for ${alg}`);
    return { key: (await importJWK(jwk, keyAlg)) as CryptoKey, alg, kid: jwk.kid! };
  }

  private privateJwks(): Promise<JWK[]> {
    // Keys never change once made (no rotation yet), so one read per instance is enough.
    this.loaded ??= this.repo
      .find({ order: { createdAt: 'ASC' } })
      .then((rows) => rows.map((r) => JSON.parse(this.secretBox.decryptText(r.privateJwkSealed, context(r.kid))) as JWK));
    this.loaded.catch(() => (this.loaded = undefined));
    return this.loaded;
  }

  private async generate(use: 'sig' | 'enc', alg: UpstreamKeyAlg): Promise<Partial<UpstreamClientKeyEntity>> {
    const { privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg.startsWith('RS') ? { modulusLength: 2048 } : {}) });
    const kid = `${use}-${alg.toLowerCase()}-${randomUUID()}`;
    const jwk = { ...(await exportJWK(privateKey)), kid, alg, use };
    return { kid, use, alg, privateJwkSealed: this.secretBox.encrypt(JSON.stringify(jwk), context(kid)) };
  }
}

/**
 * An ECDH-ES key serves every ECDH-ES variant, so it is published without `alg` (an upstream set to
 * ECDH-ES+A256KW still finds it); the others name theirs.
 */
function publishedAlg(jwk: JWK): boolean {
  return jwk.alg !== 'ECDH-ES';
}
