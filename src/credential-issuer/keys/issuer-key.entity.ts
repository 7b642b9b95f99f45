import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * active: the newest signer (signing from `signsFrom`); retiring: replaced, its sealed key destroyed at `retireAt`, its
 * certificate kept (published for verifiers) until the last credential it can have signed has expired.
 */
export type IssuerKeyStatus = 'active' | 'retiring';

/**
 * customer-test only: a signer certificate of the credential issuer under the test root, with its private key sealed.
 * Instances share the table, so every instance signs with the same signer (keySchedule, as the OpenID signing keys).
 */
@Entity('credential_issuer_keys')
export class IssuerKeyEntity {
  /** base64url SHA-256 of the certificate (its x5t#S256). */
  @PrimaryColumn({ type: 'text' }) kid: string;
  @Column({ type: 'text' }) alg: 'ES256';
  @Column({ type: 'text' }) status: IssuerKeyStatus;
  /** The certificate, DER in base64 (public). */
  @Column({ type: 'text' }) certificate: string;
  @Column({ type: 'text' }) subject: string;
  @Column({ name: 'not_after', type: 'timestamptz' }) notAfter: Date;
  /** null once the key retired: only its certificate is kept. */
  @Column({ name: 'private_key_sealed', type: 'text', nullable: true }) privateKeySealed: string | null;
  @Column({ name: 'signs_from', type: 'timestamptz', nullable: true }) signsFrom: Date | null;
  @Column({ name: 'retire_at', type: 'timestamptz', nullable: true }) retireAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
