import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The verification data of spec 1.9 (document photo, face data, claims, result, timestamp), sealed with
 * AES-256-GCM; the key id is kept beside it for rotation. Deleted for good after the retention period.
 */
@Entity('verification_records')
@Index(['deleteAfter'])
export class VerificationRecordEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'client_id', type: 'text' }) clientId: string;
  @Column({ type: 'text' }) sealed: string;
  @Column({ name: 'key_id', type: 'text' }) keyId: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'delete_after', type: 'timestamptz' }) deleteAfter: Date;
}
