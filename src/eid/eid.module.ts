import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/load-config.js';
import { EID_PROVIDERS, type EidProvider } from './eid-provider.js';
import { EidRegistry } from './eid-registry.js';
import { PendingRedirectsService } from './redirects/pending-redirects.service.js';
import { TestEidProvider } from './test-eid/test-eid.provider.js';
import { DocumentVerifierProvider } from '../verifier/scheme/document-verifier.provider.js';
import { VerifierModule } from '../verifier/verifier.module.js';

/** Registers the schemes of this environment; the test eID exists only in customer-test. */
@Module({})
export class EidModule {
  static forRoot(config: AppConfig): DynamicModule {
    const testSchemes = config.isProduction ? [] : [TestEidProvider];
    const schemes = [DocumentVerifierProvider, ...testSchemes];
    return {
      module: EidModule,
      global: true,
      imports: [VerifierModule],
      providers: [
        ...testSchemes,
        { provide: EID_PROVIDERS, inject: schemes, useFactory: (...providers: EidProvider[]) => providers },
        EidRegistry,
        PendingRedirectsService,
      ],
      exports: [EidRegistry, PendingRedirectsService],
    };
  }
}
