import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource, LessThanOrEqual, Repository } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box.js';
import { SamlTransactionEntity } from './saml-transaction.entity.js';

/** What the front door was asked; sealed at rest (TARGET is the merchant's and may say anything). */
export interface SamlRequest {
  target: string | null;
  /** Where the answer goes: the assertion consumer URL (Browser/POST) or the artifact receiver URL. */
  consumerUrl: string;
  /** Absent in transactions stored before Browser/Artifact existed: those were POST. */
  binding?: SamlBinding;
}

export type SamlBinding = 'post' | 'artifact';

/** As long as the engine's interaction lives: the broker pages may take that long. */
export const SAML_TRANSACTION_TTL_SECONDS = 30 * 60;
/** The prefix of the reference a SAML login carries through the broker core (its ownerRef). */
const REF_PREFIX = 'saml:';
const context = (id: string) => `saml-transaction:${id}`;

@Injectable()
export class SamlTransactionsService {
  private readonly repo: Repository<SamlTransactionEntity>;

  constructor(
    dataSource: DataSource,
    private readonly secretBox: SecretBox,
  ) {
    this.repo = dataSource.getRepository(SamlTransactionEntity);
  }

  /**
   * A new transaction; answers its reference, which the login carries through the broker core (sealed into its
   * carrier, never shown to the browser) and this front door gets back at the end.
   */
  async begin(clientId: string, request: SamlRequest): Promise<string> {
    const id = randomBytes(16).toString('base64url');
    await this.repo.insert({
      id,
      clientId,
      requestSealed: this.secretBox.encrypt(JSON.stringify(request), context(id)),
      expiresAt: new Date(Date.now() + SAML_TRANSACTION_TTL_SECONDS * 1000),
    });
    return `${REF_PREFIX}${id}`;
  }

  /**
   * Uses the transaction up (one conditional UPDATE: of two racing completions one wins); its request, or undefined.
   * Only an id this front door issued for the same merchant and not yet used matches (128 random bits).
   */
  async consume(ref: string, clientId: string): Promise<SamlRequest | undefined> {
    const id = idOf(ref);
    if (!id) return undefined;
    const [rows]: [{ request_sealed: string }[], number] = await this.repo.query(
      `UPDATE saml_transactions SET consumed_at = now()
       WHERE id = $1 AND client_id = $2 AND consumed_at IS NULL AND expires_at > now()
       RETURNING request_sealed`,
      [id, clientId],
    );
    const row = rows[0];
    return row ? (JSON.parse(this.secretBox.decryptText(row.request_sealed, context(id))) as SamlRequest) : undefined;
  }

  async purgeExpired(now = new Date()): Promise<number> {
    return (await this.repo.delete({ expiresAt: LessThanOrEqual(now) })).affected ?? 0;
  }
}

function idOf(ref: string): string | undefined {
  return ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : undefined;
}
