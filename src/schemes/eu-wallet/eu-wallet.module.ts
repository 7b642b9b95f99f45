import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WalletTransactionEntity } from './transactions/wallet-transaction.entity.js';
import { WalletTransactionsService } from './transactions/wallet-transactions.service.js';
import { WalletTestAuthorityEntity } from './trust/wallet-test-authority.entity.js';
import { WalletTestAuthoritiesService } from './trust/wallet-test-authorities.service.js';
import { WalletTrustService } from './trust/wallet-trust.service.js';

/**
 * The EU Digital Identity Wallet as an eID scheme (OpenID4VP 1.0, docs/eu-wallet.md): its transactions, its trust
 * lists and request signer, customer-test's wallet PKI. Below the broker core, like every scheme.
 */
@Module({
  imports: [TypeOrmModule.forFeature([WalletTransactionEntity, WalletTestAuthorityEntity])],
  providers: [WalletTransactionsService, WalletTestAuthoritiesService, WalletTrustService],
  exports: [WalletTransactionsService, WalletTrustService],
})
export class EuWalletModule {}
