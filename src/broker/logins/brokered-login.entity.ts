import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One completed eID login: the brokered identity (subject and claims, sealed) that tokens and user-info
 * are answered from. The engine's accountId is the stable subject; a login is found through the grant
 * its tokens carry, so each token answers with the claims of the login that produced it.
 */
@Entity('brokered_logins')
@Index(['expiresAt'])
export class BrokeredLoginEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'client_id', type: 'text' }) clientId: string;
  @Column({ name: 'grant_id', type: 'text', unique: true }) grantId: string;
  @Column({ type: 'text' }) scheme: string;
  @Column({ name: 'identity_sealed', type: 'text' }) identitySealed: string;
  @Column({ type: 'text', nullable: true }) acr: string | null;
  @Column({ type: 'jsonb' }) amr: string[];
  @Column({ name: 'auth_time', type: 'timestamptz' }) authTime: Date;
  @Column({ name: 'evidence_ref', type: 'text', nullable: true }) evidenceRef: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
}
