import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * Our SAML signing key and its self-signed certificate. Apart from the OIDC keys on purpose: relying
 * parties of the Shibboleth family pin the certificate from our metadata, so it must not change whenever
 * the OIDC keys rotate. The private key is sealed at rest; the certificate is public.
 */
@Entity('saml_signing_keys')
export class SamlSigningKeyEntity {
  @PrimaryColumn({ type: 'text' }) kid: string;
  @Column({ name: 'private_key_sealed', type: 'text' }) privateKeySealed: string;
  @Column({ name: 'certificate_pem', type: 'text' }) certificatePem: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
