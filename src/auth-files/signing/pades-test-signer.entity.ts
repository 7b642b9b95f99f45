import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** customer-test's generated PAdES test signer: the key sealed at rest, the chain (signer first) public. */
@Entity('pades_test_signers')
export class PadesTestSignerEntity {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ name: 'private_key_sealed', type: 'text' }) privateKeySealed: string;
  @Column({ name: 'certificate_chain_pem', type: 'text' }) certificateChainPem: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
