import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * created: the QR code / wallet link is shown; request_fetched: a wallet fetched the signed request (the page shows
 * "wallet connected"); responded: a presentation was verified (its identity sealed, waiting for the browser);
 * failed: a response was refused or the wallet said no; consumed: the browser took the identity (once).
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
  /** Which link the wallet came through: the same-device button gets a redirect back, the QR code does not. */
  @Column({ type: 'text', nullable: true }) flow: 'same_device' | 'cross_device' | null;
  @Column({ name: 'request_sealed', type: 'text' }) requestSealed: string;
  @Column({ name: 'result_sealed', type: 'text', nullable: true }) resultSealed: string | null;
  /** A WalletCheckError code or the wallet's error, never personal data. */
  @Column({ type: 'text', nullable: true }) failure: string | null;
  /** SHA-256 of the same-device response_code, compared when the browser comes back with it. */
  @Column({ name: 'response_code_hash', type: 'text', nullable: true }) responseCodeHash: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
}
