import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** active: the newest key of its algorithm (signing from `signsFrom`); retiring: leaves the JWKS at `retireAt`. */
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
  /**
   * When the key starts signing (null: at once, the first keys). A rotated key is published first and signs
   * only from here, so every instance publishes it before any instance signs with it.
   */
  @Column({ name: 'signs_from', type: 'timestamptz', nullable: true }) signsFrom: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
