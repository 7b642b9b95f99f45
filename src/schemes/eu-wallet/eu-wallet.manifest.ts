import type { SchemeManifest } from '../../broker/spi/scheme-manifest.js';
import { loadWalletConfig, walletConfig } from './config/wallet-config.js';
import { EuWallet1700000000230 } from './migrations/1700000000230-eu-wallet.js';
import { WalletTransactionPerLink1700000000243 } from './migrations/1700000000243-wallet-transaction-per-link.js';
import { WALLET_API_PREFIX, WALLET_PATHS } from './wallet-paths.js';

/**
 * The EU Digital Identity Wallet (docs/eu-wallet.md). Production offers it only with a request signer and a trust
 * anchor (WALLET_*). A wallet's encrypted answer holds its presentations (an mdoc with a large portrait, a PID): up
 * to 1 MiB of JWE. Wallets are apps too: their request_uri and response_uri count in the app API's budget per address.
 */
export const manifest: SchemeManifest = {
  name: 'eu-wallet',
  order: 40,
  config: loadWalletConfig,
  enabled: (config) => walletConfig(config).offered,
  module: () => import('./eu-wallet.module.js').then((m) => m.EuWalletModule),
  migrations: [EuWallet1700000000230, WalletTransactionPerLink1700000000243],
  http: {
    bodyLimits: [{ path: WALLET_PATHS.responses, kind: 'urlencoded', bytes: 1100 * 1024, parameterLimit: 8 }],
    rateLimits: [{ prefix: WALLET_API_PREFIX, bucket: 'app_api', per: 'ip' }],
  },
};
