import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A signed assertion waiting for its merchant to resolve the artifact that names it (Browser/Artifact).
 * Keyed by a hash of the artifact's handle; the assertion (personal data) is sealed; single use, one minute.
 */
@Entity('saml_artifacts')
@Index(['expiresAt'])
export class SamlArtifactEntity {
  @PrimaryColumn({ name: 'handle_hash', type: 'text' }) handleHash: string;
  @Column({ name: 'client_id', type: 'text' }) clientId: string;
  @Column({ name: 'assertion_sealed', type: 'text' }) assertionSealed: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
  @Column({ name: 'resolved_at', type: 'timestamptz', nullable: true }) resolvedAt: Date | null;
}
