import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The verification data of spec 1.9 (document photo, face data, claims, result, timestamp), sealed with
 * AES-256-GCM in two parts (verification-record-parts.ts); the key id is kept beside them for rotation. Deleted for
 * good after the retention period.
 */
@Entity('verification_records')
@Index(['deleteAfter'])
export class VerificationRecordEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'client_id', type: 'text' }) clientId: string;
  /** The images (chip photo, selfie, face embedding); in rows from before the split, the whole record. */
  @Column({ type: 'text' }) sealed: string;
  /** Everything but the images; NULL in rows from before the split, which retention removes within 90 days of it. */
  @Column({ name: 'sealed_claims', type: 'text', nullable: true }) sealedClaims: string | null;
  @Column({ name: 'key_id', type: 'text' }) keyId: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'delete_after', type: 'timestamptz' }) deleteAfter: Date;
}
