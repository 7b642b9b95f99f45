import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A browser sent to another site by a scheme (a `redirect` step), waiting to come back to the broker's
 * callback. The key is the SHA-256 of the `state` handed out (the state itself is a bearer secret and is
 * never stored); the scheme's data (nonce, PKCE verifier) is sealed.
 */
@Entity('eid_pending_redirects')
@Index(['expiresAt'])
export class PendingRedirectEntity {
  @PrimaryColumn({ name: 'state_hash', type: 'text' }) stateHash: string;
  @Column({ name: 'interaction_uid', type: 'text' }) interactionUid: string;
  @Column({ type: 'text' }) scheme: string;
  @Column({ name: 'data_sealed', type: 'text' }) dataSealed: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true }) consumedAt: Date | null;
}
