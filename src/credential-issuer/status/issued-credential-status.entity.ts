import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** Token Status List §7.1: 0x00 VALID, 0x01 INVALID (revoked for good). */
export const STATUS_VALID = 0;
export const STATUS_INVALID = 1;

/**
 * The status entry of one issued credential: its (random) index in its list, and what it was issued from, so that
 * a revocation can find it by issuance, by verification record or by the person's revocation handle (only its
 * SHA-256 is stored). Nothing personal: the record id points at the verifier's sealed record.
 */
@Entity('issued_credential_status')
export class IssuedCredentialStatusEntity {
  @PrimaryColumn({ name: 'list_id', type: 'text' }) listId: string;
  @PrimaryColumn({ type: 'integer' }) idx: number;
  @Column({ type: 'smallint' }) status: number;
  @Column({ name: 'issuance_id', type: 'text' }) issuanceId: string;
  @Column({ name: 'verification_record_id', type: 'uuid', nullable: true }) verificationRecordId: string | null;
  /**
   * When the record's retention was to delete it, as it stood at issuance: a record gone before then was erased (its
   * credentials are revoked), one gone after it ended by retention (its credentials live on to their own expiry).
   */
  @Column({ name: 'record_delete_after', type: 'timestamptz', nullable: true }) recordDeleteAfter: Date | null;
  @Column({ name: 'revocation_handle_hash', type: 'text', nullable: true }) revocationHandleHash: string | null;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
