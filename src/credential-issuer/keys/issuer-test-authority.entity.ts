import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** customer-test only: the root "Customer-test Credential Issuer CA", certificate and private key, sealed. */
@Entity('credential_issuer_test_authority')
export class IssuerTestAuthorityEntity {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ type: 'text' }) sealed: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
