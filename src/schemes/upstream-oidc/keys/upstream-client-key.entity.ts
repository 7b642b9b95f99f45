import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type UpstreamKeyAlg = 'RS256' | 'ES256' | 'RSA-OAEP-256' | 'ECDH-ES';

/**
 * A key pair of the broker as a client of upstream providers: `sig` keys sign private_key_jwt client
 * assertions, `enc` keys are what upstreams encrypt ID tokens to. The private JWK is sealed at rest (context
 * bound to the kid); the public halves are published at GET /its/eid/jwks.
 */
@Entity('upstream_client_keys')
export class UpstreamClientKeyEntity {
  @PrimaryColumn({ type: 'text' }) kid: string;
  @Column({ type: 'text' }) use: 'sig' | 'enc';
  @Column({ type: 'text' }) alg: UpstreamKeyAlg;
  @Column({ name: 'private_jwk_sealed', type: 'text' }) privateJwkSealed: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
