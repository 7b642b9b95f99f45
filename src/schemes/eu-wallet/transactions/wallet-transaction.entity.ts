import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { WalletFlow } from '../wallet-paths.js';

/**
 * created: the QR code / wallet link is shown; request_fetched: a wallet fetched the signed request (the page shows
 * "wallet connected"); responded: a presentation was verified (its identity sealed, waiting for the browser);
 * consumed: the browser took the identity (once); failed: closed without an identity (the person asked for a fresh
 * request, or the other link's answer was taken). A refused answer or a wallet's error does not close a transaction:
 * it is noted (`failure`, `failures`) for the page to show, and the real wallet may still answer.
 */
export type WalletTransactionStatus = 'created' | 'request_fetched' | 'responded' | 'failed' | 'consumed';

/**
 * One OpenID4VP exchange of one interaction. `id` is the public handle in request_uri and response_uri; what binds the
 * wallet's answer (nonce, state, the response encryption key) is sealed with the query; the verified identity is
 * sealed until the browser takes it, then cleared with the row at expiry.
 */
@Entity('wallet_transactions')
export class WalletTransactionEntity {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ name: 'interaction_uid', type: 'text' }) interactionUid: string;
  @Column({ name: 'client_id', type: 'text' }) clientId: string;
  @Column({ type: 'text' }) status: WalletTransactionStatus;
  /**
   * Which link this transaction is: fixed when it is made, one transaction per link, never changed by a fetch. The
   * same-device one answers the wallet a redirect with a response_code; the cross-device one is taken by the page.
   */
  @Column({ type: 'text' }) flow: WalletFlow;
  /** The pair of transactions (one per link) made together for one try of one sign-in. */
  @Column({ type: 'text' }) attempt: string;
  @Column({ name: 'request_sealed', type: 'text' }) requestSealed: string;
  @Column({ name: 'result_sealed', type: 'text', nullable: true }) resultSealed: string | null;
  /** The last refused answer's WalletCheckError code or the wallet's error (`wallet_<error>`), never personal data. */
  @Column({ type: 'text', nullable: true }) failure: string | null;
  /** How many answers were refused (or declined by a wallet): the page shows the last, once each. */
  @Column({ type: 'integer', default: 0 }) failures: number;
  /** SHA-256 of the same-device response_code, compared when the browser comes back with it. */
  @Column({ name: 'response_code_hash', type: 'text', nullable: true }) responseCodeHash: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
}
