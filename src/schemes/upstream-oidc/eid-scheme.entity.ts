import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { ClaimMapperConfig } from './mappers/index.js';
import type { IdTokenEncryptionAlg, IdTokenEncryptionEnc } from './upstream-scheme-settings.js';

/**
 * An eID scheme that is data, not code (Keycloak's IdentityProviderModel): today an upstream OpenID
 * provider. The client secret is sealed (context bound to the scheme id) and never leaves the service.
 */
@Entity('eid_schemes')
export class EidSchemeEntity {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ type: 'text', default: 'upstream-oidc' }) kind: 'upstream-oidc';
  @Column({ type: 'jsonb' }) labels: Record<string, string>;
  @Column({ type: 'text' }) environment: 'customer-test' | 'production';
  @Column({ type: 'boolean', default: true }) enabled: boolean;
  @Column({ type: 'text' }) issuer: string;
  @Column({ name: 'client_id', type: 'text' }) clientId: string;
  @Column({ name: 'client_secret_sealed', type: 'text', nullable: true }) clientSecretSealed: string | null;
  @Column({ name: 'token_endpoint_auth_method', type: 'text' }) tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
  /** null: RS256 (only read for private_key_jwt). */
  /** Both set or both null (the admin API checks): ID tokens encrypted to our key, or plain. */
  @Column({ name: 'id_token_encrypted_response_alg', type: 'text', nullable: true }) idTokenEncryptedResponseAlg: IdTokenEncryptionAlg | null;
  @Column({ name: 'id_token_encrypted_response_enc', type: 'text', nullable: true }) idTokenEncryptedResponseEnc: IdTokenEncryptionEnc | null;
  @Column({ name: 'token_endpoint_auth_signing_alg', type: 'text', nullable: true }) tokenEndpointAuthSigningAlg: 'RS256' | 'ES256' | null;
  @Column({ type: 'text' }) scope: string;
  @Column({ name: 'acr_values', type: 'jsonb' }) acrValues: string[];
  @Column({ name: 'acr_map', type: 'jsonb' }) acrMap: Record<string, string>;
  @Column({ name: 'pass_ui_locales', type: 'boolean' }) passUiLocales: boolean;
  @Column({ name: 'pass_login_hint', type: 'boolean' }) passLoginHint: boolean;
  @Column({ type: 'boolean' }) userinfo: boolean;
  @Column({ type: 'jsonb' }) amr: string[];
  @Column({ name: 'subject_claim', type: 'text' }) subjectClaim: string;
  @Column({ name: 'subject_mode', type: 'text' }) subjectMode: 'hashed' | 'upstream';
  @Column({ name: 'claim_mappers', type: 'jsonb' }) claimMappers: ClaimMapperConfig[];
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
