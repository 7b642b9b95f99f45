import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A SAML sign-in between the front door and the end of the broker pages: which merchant, and (sealed) what
 * to answer it with (TARGET, the consumer URL). Its id travels as the engine request's `state`; it is
 * consumed once, when the assertion is made.
 */
@Entity('saml_transactions')
@Index(['expiresAt'])
export class SamlTransactionEntity {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ name: 'client_id', type: 'text' }) clientId: string;
  @Column({ name: 'request_sealed', type: 'text' }) requestSealed: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true }) consumedAt: Date | null;
}
