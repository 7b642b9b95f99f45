import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type OutboxState = 'pending' | 'delivered' | 'failed';

/**
 * A ping (or later push) callback to a merchant, written in the same step that completes the request, so a
 * restart between approval and delivery still delivers. URL, bearer token and body are sealed.
 */
@Entity('ciba_outbox')
export class OutboxEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'client_id', type: 'text' }) clientId: string;
  @Column({ type: 'text' }) kind: 'ping' | 'push';
  @Column({ type: 'text' }) state: OutboxState;
  @Column({ type: 'text' }) sealed: string;
  @Column({ type: 'integer', default: 0 }) attempts: number;
  @Column({ name: 'next_attempt_at', type: 'timestamptz' }) nextAttemptAt: Date;
  @Column({ name: 'last_error', type: 'text', nullable: true }) lastError: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true }) deliveredAt: Date | null;
}
