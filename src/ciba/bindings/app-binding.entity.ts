import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const APP_STATUSES = ['active', 'suspended'] as const;
export type AppStatus = (typeof APP_STATUSES)[number];

/**
 * An app instance (appId) provisioned by one merchant, bound to the subject a document verification proved.
 * appId and subject are found by HMAC keys; the values themselves (and the app's secret and user code hashes)
 * are only in the sealed column.
 */
@Entity('ciba_app_bindings')
export class AppBindingEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'client_id', type: 'text' }) clientId: string;
  @Column({ name: 'app_key', type: 'text' }) appKey: string;
  @Column({ name: 'subject_key', type: 'text' }) subjectKey: string;
  @Column({ type: 'text' }) status: AppStatus;
  @Column({ type: 'text' }) sealed: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
