import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * One Token Status List of 2^17 entries. `used` counts its allocated indexes (a list closes at three quarters, so a
 * random free index is found in a few tries); `version` grows with every change of a status, and is what instances
 * compare to know that their cached token is stale.
 */
@Entity('credential_status_lists')
export class CredentialStatusListEntity {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ type: 'integer' }) used: number;
  @Column({ type: 'boolean' }) open: boolean;
  /** bigint: read as a string. */
  @Column({ type: 'bigint' }) version: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
