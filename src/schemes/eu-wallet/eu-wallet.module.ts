import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EuWalletScheme } from './eu-wallet.scheme.js';
import { WalletEndpointsController } from './exchange/wallet-endpoints.controller.js';
import { WalletExchangeService } from './exchange/wallet-exchange.service.js';
import { WalletStatusController } from './exchange/wallet-status.controller.js';
import { WalletPresentationsService } from './presentation/wallet-presentations.service.js';
import { WalletStatusLists } from './presentation/wallet-status-lists.js';
import { WalletTestCredentialsController } from './test-credentials/test-credentials.controller.js';
import { WalletTestCredentialsService } from './test-credentials/test-credentials.service.js';
import { WalletTransactionEntity } from './transactions/wallet-transaction.entity.js';
import { WalletTransactionsService } from './transactions/wallet-transactions.service.js';
import { WalletTestAuthorityEntity } from './trust/wallet-test-authority.entity.js';
import { WalletTestAuthoritiesService } from './trust/wallet-test-authorities.service.js';
import { ReusedIdentityTrust } from './trust/reused-identity-trust.service.js';
import { WalletTrustService } from './trust/wallet-trust.service.js';
import { WalletObservations } from './wallet-observations.js';

/**
 * The EU Digital Identity Wallet as an eID scheme (OpenID4VP 1.0, docs/eu-wallet.md): its transactions, its trust
 * lists and request signer, customer-test's wallet PKI; and the service's own reusable credential when a provider
 * marked ReusableCredentials offers one (found by discovery). Below the broker core, like every scheme.
 */
@Module({
  imports: [TypeOrmModule.forFeature([WalletTransactionEntity, WalletTestAuthorityEntity]), DiscoveryModule],
  controllers: [WalletEndpointsController, WalletStatusController, WalletTestCredentialsController],
  providers: [
    WalletTestCredentialsService,
    EuWalletScheme,
    WalletExchangeService,
    WalletPresentationsService,
    WalletStatusLists,
    WalletTransactionsService,
    WalletTestAuthoritiesService,
    WalletTrustService,
    ReusedIdentityTrust,
    WalletObservations,
  ],
  exports: [WalletTestAuthoritiesService],
})
export class EuWalletModule {}
