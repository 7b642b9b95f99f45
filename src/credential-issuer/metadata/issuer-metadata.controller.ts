import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { authorizationServerMetadata, credentialIssuerMetadata, verifiedIdentityTypeMetadata } from '@identity-broker/eu-wallet';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { CREDENTIAL_CONFIGURATION_ID, issuerUrls, VCI_PATHS } from '../credential-issuer-paths.js';
import { claimDisplays, credentialDisplay } from './credential-display.js';

/** What a wallet reads before it asks for anything: built once, the same on every instance. */
@ApiExcludeController()
@Controller()
export class IssuerMetadataController {
  private readonly issuer: Record<string, unknown>;
  private readonly authorizationServer: Record<string, unknown>;
  private readonly typeMetadata: Record<string, unknown>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const urls = issuerUrls(config.baseUrl);
    const display = credentialDisplay();
    const claims = claimDisplays();
    this.issuer = credentialIssuerMetadata({
      credentialIssuer: urls.issuer,
      configurationId: CREDENTIAL_CONFIGURATION_ID,
      vct: urls.vct,
      display,
      claims,
      batchSize: config.credentialIssuer.batchSize,
      allowHttpLoopback: !config.isProduction,
    }) as Record<string, unknown>;
    this.authorizationServer = authorizationServerMetadata({
      issuer: urls.issuer,
      tokenEndpoint: urls.token,
      // The authorization code flow only for registered wallets: without any, the endpoint is not announced.
      ...(config.credentialIssuer.walletClients.length ? { authorizationEndpoint: `${urls.issuer}/authorize` } : {}),
      allowHttpLoopback: !config.isProduction,
    }) as Record<string, unknown>;
    this.typeMetadata = verifiedIdentityTypeMetadata({ vct: urls.vct, display, claims }) as unknown as Record<string, unknown>;
  }

  /** OpenID4VCI 1.0 §12.2: the issuer's metadata, at the well-known path inserted before the identifier's path. */
  @Get(VCI_PATHS.issuerMetadata)
  @Header('Cache-Control', 'public, max-age=3600')
  issuerMetadata(): Record<string, unknown> {
    return this.issuer;
  }

  /** RFC 8414: the issuer is its own authorization server (the pre-authorized code flow's token endpoint). */
  @Get(VCI_PATHS.authorizationServerMetadata)
  @Header('Cache-Control', 'public, max-age=3600')
  authorizationServerMetadata(): Record<string, unknown> {
    return this.authorizationServer;
  }

  /** SD-JWT VC type metadata, served at the vct itself (an https URL that resolves). */
  @Get(VCI_PATHS.typeMetadata)
  @Header('Cache-Control', 'public, max-age=3600')
  typeMetadataDocument(): Record<string, unknown> {
    return this.typeMetadata;
  }
}
