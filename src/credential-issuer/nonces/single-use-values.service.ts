import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import { sha256Hex } from '../../common/crypto/constant-time.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { REDIS, type RedisHandle } from '../../redis/redis.module.js';
import { SealedNonces } from './sealed-nonces.js';
import { MemorySpentValues, RedisSpentValues, type SpentValues } from './spent-values.js';

/** How long a c_nonce is good for: a wallet fetches it right before it signs its key proofs. */
export const NONCE_SECONDS = 300;
/** The c_nonce's purpose label: its key, and a claim inside it. Another kind of nonce gets another label. */
const C_NONCE = 'openid4vci c_nonce';

/**
 * The values the credential issuer accepts once: the c_nonce of the nonce endpoint (OpenID4VCI 1.0 §7), spent by the
 * credential request whose key proofs carry it, and the `jti` of every DPoP proof (RFC 9449 §11.1). Asking for a nonce
 * costs no storage (a sealed value, see SealedNonces); what is kept is the spent ones, and only for requests that
 * authenticated first (the caller's order), in Redis with REDIS_URL, else in this process: never in the database.
 */
@Injectable()
export class SingleUseValuesService {
  private readonly nonces: SealedNonces;
  private readonly spent: SpentValues;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(REDIS) redis: RedisHandle,
    private readonly clock: Clock,
  ) {
    this.nonces = new SealedNonces(C_NONCE, config.encryption.currentKeyId, config.encryption.keys);
    this.spent = redis ? new RedisSpentValues(redis, `${config.redisKeyPrefix}vci-spent:`) : new MemorySpentValues();
  }

  newNonce(): Promise<string> {
    return this.nonces.seal(this.clock.now(), NONCE_SECONDS);
  }

  /** True once for a c_nonce this issuer made and that has not expired; false for anything else. */
  async spendNonce(nonce: unknown): Promise<boolean> {
    const now = this.clock.now();
    const opened = await this.nonces.open(nonce, now);
    return opened !== undefined && this.spent.spend(`c_nonce:${opened.id}`, opened.expiresAtMs, now.getTime());
  }

  /** True the first time a DPoP proof id is seen for this key; kept until `untilMs`, when the proof is too old anyway. */
  firstUseOfProof(jkt: string, jti: string, untilMs: number): Promise<boolean> {
    // Hashed: a jti is the wallet's text (up to 256 characters), the key has a fixed length.
    return this.spent.spend(`dpop:${sha256Hex(`${jkt}:${jti}`)}`, untilMs, this.clock.now().getTime());
  }
}
