import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** customer-test only: the wallet scheme's test PID provider, test IACA and test request signer, sealed (private keys inside). */
@Entity('wallet_test_authorities')
export class WalletTestAuthorityEntity {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ type: 'text' }) sealed: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
