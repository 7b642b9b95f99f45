import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Who changed what, when. `changes` holds field names and non-secret values only. */
@Entity('audit_records')
@Index(['targetType', 'targetId'])
export class AuditRecordEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ type: 'text' }) actor: string;
  @Column({ name: 'actor_role', type: 'text' }) actorRole: string;
  @Column({ type: 'text' }) action: string;
  @Column({ name: 'target_type', type: 'text' }) targetType: string;
  @Column({ name: 'target_id', type: 'text' }) targetId: string;
  @Column({ type: 'jsonb', default: {} }) changes: Record<string, unknown>;
  @CreateDateColumn({ name: 'at', type: 'timestamptz' }) at: Date;
}
