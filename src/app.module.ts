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
  /**
   * `schemes`: the modules of the schemes this deployment runs (their manifests say which: src/bootstrap/scheme-manifests.ts).
   * `extra`: modules of the tests' own (say a stand-in for a provider another room will give), after all the others.
   */
  static forRoot(config: AppConfig, database: DatabaseHandle, schemes: (Type | DynamicModule)[], extra: (Type | DynamicModule)[] = []): DynamicModule {
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
        // The schemes: found by the broker through their marks, never imported by it.
        ...schemes,
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
