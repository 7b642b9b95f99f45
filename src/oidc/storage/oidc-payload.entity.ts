import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Everything oidc-provider stores (sessions, interactions, codes, tokens, grants, replay markers …), one row each. */
@Entity('oidc_payloads')
@Index(['grantId'])
@Index(['uid'])
@Index(['userCode'])
@Index(['expiresAt'])
export class OidcPayloadEntity {
  @PrimaryColumn({ type: 'text' }) model: string;
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ type: 'jsonb' }) payload: Record<string, unknown>;
  @Column({ name: 'grant_id', type: 'text', nullable: true }) grantId: string | null;
  @Column({ name: 'user_code', type: 'text', nullable: true }) userCode: string | null;
  @Column({ type: 'text', nullable: true }) uid: string | null;
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true }) expiresAt: Date | null;
  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true }) consumedAt: Date | null;
}
