import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { findReusableCredentialProvider, type ReusableCredentialProvider } from '../../../broker/spi/reusable-credentials.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { walletConfig } from '../config/wallet-config.js';

/**
 * The service's own reusable credential, as the wallet scheme trusts it: the provider the credential issuer marks
 * (found once every provider exists; the scheme imports nothing of the issuer), unless WALLET_TRUST_OWN_CREDENTIALS
 * is false. Without one the scheme asks for and accepts only the EU wallet's credentials, as before.
 */
@Injectable()
export class ReusedIdentityTrust implements OnModuleInit {
  private provider?: ReusableCredentialProvider;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly discovery: DiscoveryService,
  ) {}

  onModuleInit(): void {
    const found = findReusableCredentialProvider(this.discovery);
    this.provider = walletConfig(this.config).trustOwnCredentials ? found : undefined;
  }

  /** The provider, when the scheme trusts its credential. */
  trusted(): ReusableCredentialProvider | undefined {
    return this.provider;
  }

  /** The provider and its anchors when there are any: a provider with no root to trust yet is not asked for. */
  async trustedWithAnchors(): Promise<{ provider: ReusableCredentialProvider; anchors: Uint8Array[] } | undefined> {
    const provider = this.provider;
    if (!provider) return undefined;
    const anchors = await provider.anchors();
    return anchors.length > 0 ? { provider, anchors } : undefined;
  }
}
