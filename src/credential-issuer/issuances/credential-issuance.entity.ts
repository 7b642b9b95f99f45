import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * offered: the offer (QR code, link, transaction code) was shown; redeemed: a wallet exchanged the pre-authorized code
 * (with the right transaction code) for an access token bound to its DPoP key; issued: the credentials were issued
 * (once); burnt: too many wrong transaction codes, or withdrawn by a newer offer for the same verification.
 */
export type IssuanceState = 'offered' | 'redeemed' | 'issued' | 'burnt';

/**
 * One credential offer and what came of it. Every secret is stored as its SHA-256 only (offer handle, pre-authorized
 * code, transaction code, access token, revocation handle), and no personal data is kept here: the credential's claims
 * are read from the sealed verification record when the credential is issued, and this row then only says that it was.
 */
@Entity('credential_issuances')
export class CredentialIssuanceEntity {
  @PrimaryColumn({ type: 'uuid' }) id: string;
  /** The verification the credential states (its sealed record, under the 90-day retention rule). */
  @Column({ name: 'record_id', type: 'uuid' }) recordId: string;
  /** The merchant whose sign-in (or the app session) verified the document: for the operator's records. */
  @Column({ name: 'client_id', type: 'text' }) clientId: string;
  @Column({ type: 'text' }) state: IssuanceState;
  @Column({ name: 'offer_handle_hash', type: 'text' }) offerHandleHash: string;
  @Column({ name: 'pre_authorized_code_hash', type: 'text' }) preAuthorizedCodeHash: string;
  @Column({ name: 'tx_code_hash', type: 'text' }) txCodeHash: string;
  @Column({ name: 'tx_code_failures', type: 'int', default: 0 }) txCodeFailures: number;
  @Column({ name: 'revocation_handle_hash', type: 'text' }) revocationHandleHash: string;
  @Column({ name: 'offer_expires_at', type: 'timestamptz' }) offerExpiresAt: Date;
  @Column({ name: 'access_token_hash', type: 'text', nullable: true }) accessTokenHash: string | null;
  /** RFC 9449 §6: the JWK thumbprint of the wallet's DPoP key, which every use of the token must prove. */
  @Column({ name: 'access_token_jkt', type: 'text', nullable: true }) accessTokenJkt: string | null;
  @Column({ name: 'access_token_expires_at', type: 'timestamptz', nullable: true }) accessTokenExpiresAt: Date | null;
  @Column({ name: 'issued_count', type: 'int', default: 0 }) issuedCount: number;
  @Column({ name: 'issued_at', type: 'timestamptz', nullable: true }) issuedAt: Date | null;
  /** The latest expiry of what was issued; the row goes when nothing issued from it can still be presented. */
  @Column({ name: 'delete_after', type: 'timestamptz' }) deleteAfter: Date;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
