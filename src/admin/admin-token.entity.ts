import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const ADMIN_ROLES = ['admin', 'support'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** An admin API token; only its SHA-256 is stored (the token itself is 256 random bits, so no slow hash is needed). */
@Entity('admin_tokens')
export class AdminTokenEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'token_sha256', type: 'text', unique: true }) tokenSha256: string;
  @Column({ type: 'text' }) role: AdminRole;
  @Column({ type: 'text' }) label: string;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
