import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock.js';
import { sha256Hex } from '../../common/crypto/constant-time.js';

/** How long a c_nonce is good for: a wallet fetches it right before it signs its key proofs. */
export const NONCE_SECONDS = 300;

/**
 * The values the credential issuer accepts once: the c_nonce of the nonce endpoint (OpenID4VCI 1.0 §7), spent by the
 * credential request whose key proofs carry it, and the `jti` of every DPoP proof (RFC 9449 §11.1), remembered until
 * the proof would be too old anyway. Stored as hashes; a use is one DELETE or INSERT, so two racing requests with the
 * same value cannot both pass.
 */
@Injectable()
export class SingleUseValuesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async newNonce(): Promise<{ nonce: string; expiresIn: number }> {
    const nonce = randomBytes(32).toString('base64url');
    await this.dataSource.query('INSERT INTO credential_issuer_nonces (nonce_hash, expires_at) VALUES ($1, $2)', [sha256Hex(nonce), this.after(NONCE_SECONDS)]);
    return { nonce, expiresIn: NONCE_SECONDS };
  }

  /** True once for a nonce this issuer gave and that has not expired. */
  async spendNonce(nonce: string): Promise<boolean> {
    const rows = (await this.dataSource.query('DELETE FROM credential_issuer_nonces WHERE nonce_hash = $1 AND expires_at > $2 RETURNING 1 AS spent', [sha256Hex(nonce), this.clock.now()])) as unknown[];
    return firstOf(rows).length === 1;
  }

  /** True the first time a DPoP proof id is seen for this key; kept `seconds`, the longest the proof could be accepted. */
  async firstUseOfProof(jkt: string, jti: string, seconds: number): Promise<boolean> {
    const rows = (await this.dataSource.query('INSERT INTO credential_issuer_dpop_proofs (jti_hash, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1 AS first', [sha256Hex(`${jkt}:${jti}`), this.after(seconds)])) as unknown[];
    return firstOf(rows).length === 1;
  }

  async purge(): Promise<void> {
    const now = this.clock.now();
    await this.dataSource.query('DELETE FROM credential_issuer_nonces WHERE expires_at <= $1', [now]);
    await this.dataSource.query('DELETE FROM credential_issuer_dpop_proofs WHERE expires_at <= $1', [now]);
  }

  private after(seconds: number): Date {
    return new Date(this.clock.now().getTime() + seconds * 1000);
  }
}

/** `pg` answers a DELETE … RETURNING as rows; TypeORM's query() on some drivers as [rows, count]. */
function firstOf(result: unknown[]): unknown[] {
  return Array.isArray(result[0]) ? (result[0] as unknown[]) : result;
}
