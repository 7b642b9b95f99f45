import { type DynamicModule, Global, Module, type Type } from '@nestjs/common';
import { AdminModule } from './admin/admin.module.js';
import { CibaModule } from './ciba/ciba.module.js';
import { AuthFilesModule } from './auth-files/auth-files.module.js';
import { ClockModule } from './common/clock.js';
import { CryptoModule } from './common/crypto/crypto.module.js';
import { APP_CONFIG, type AppConfig } from './config/load-config.js';
import type { DatabaseHandle } from './database/data-source-options.js';
import { DatabaseModule } from './database/database.module.js';
import { BrokerModule } from './broker/broker.module.js';
import { TestEidModule } from './schemes/test-eid/test-eid.module.js';
import { UpstreamOidcModule } from './schemes/upstream-oidc/upstream-oidc.module.js';
import { EuWalletModule } from './schemes/eu-wallet/eu-wallet.module.js';
import { VerifierModule } from './schemes/document-verifier/verifier.module.js';
import { MerchantsModule } from './merchants/merchants.module.js';
import { OidcModule } from './oidc/oidc.module.js';
import { OpsModule } from './ops/ops.module.js';
import { TelemetryModule } from './common/telemetry/telemetry.js';
import { RedisModule } from './redis/redis.module.js';
import { SamlModule } from './saml/saml.module.js';
import { CredentialIssuerModule } from './credential-issuer/credential-issuer.module.js';
import { ServiceDocsModule } from './service-docs/service-docs.module.js';

@Global()
@Module({})
class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
  }
}

@Module({})
export class AppModule {
  /** `extra`: modules of the tests' own (say a stand-in for a provider another room will give), after all the others. */
  static forRoot(config: AppConfig, database: DatabaseHandle, extra: (Type | DynamicModule)[] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(database),
        RedisModule.forRoot(config.redisUrl),
        ClockModule,
        CryptoModule,
        TelemetryModule,
        AdminModule,
        MerchantsModule,
        BrokerModule,
        // The schemes: found by the broker through their marks, never imported by it. The test eID is customer-test's only.
        VerifierModule,
        ...(config.isProduction ? [] : [TestEidModule]),
        UpstreamOidcModule,
        // Production offers the wallet only with a request signer and a trust anchor (WALLET_*).
        ...(config.wallet.offered ? [EuWalletModule] : []),
        OidcModule,
        CibaModule,
        SamlModule,
        // OpenID4VCI: the verified identity into the person's wallet (VCI_ENABLED, on by default).
        ...(config.credentialIssuer.enabled ? [CredentialIssuerModule] : []),
        ServiceDocsModule,
        AuthFilesModule,
        OpsModule,
        ...extra,
      ],
    };
  }
}
