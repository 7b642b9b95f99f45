import { Inject, Injectable } from '@nestjs/common';
import { type ReusableCredentialProvider, ReusableCredentials } from '../../broker/spi/reusable-credentials.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { issuerUrls } from '../credential-issuer-paths.js';
import { IssuerKeysService } from '../keys/issuer-keys.service.js';

/**
 * What the wallet scheme needs to accept the credentials this issuer issued: their type, this issuer's identifier,
 * and the roots its issuer certificates chain to (customer-test's sealed test root; production's configured anchors).
 */
@Injectable()
@ReusableCredentials()
export class OwnCredentialTrust implements ReusableCredentialProvider {
  readonly vct: string;
  readonly issuer: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly keys: IssuerKeysService,
  ) {
    const urls = issuerUrls(config.baseUrl);
    this.vct = urls.vct;
    this.issuer = urls.issuer;
  }

  anchors(): Promise<Uint8Array[]> {
    return this.keys.anchors();
  }
}
