import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type SigningKeyStatus = 'active' | 'retiring';

/**
 * An ID token / user-info signing key. The private JWK is sealed at rest; instances share the table,
 * so every instance signs with and publishes the same keys.
 */
@Entity('signing_keys')
export class SigningKeyEntity {
  @PrimaryColumn({ type: 'text' }) kid: string;
  @Column({ type: 'text' }) alg: 'RS256' | 'ES256';
  @Column({ name: 'private_jwk_sealed', type: 'text' }) privateJwkSealed: string;
  @Column({ type: 'text' }) status: SigningKeyStatus;
  /** For retiring keys: when they leave the JWKS (the overlap lets relying parties' caches catch up). */
  @Column({ name: 'retire_at', type: 'timestamptz', nullable: true }) retireAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
