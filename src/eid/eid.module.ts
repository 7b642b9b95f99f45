import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/load-config.js';
import { EID_PROVIDERS, type EidProvider } from './eid-provider.js';
import { EidRegistry } from './eid-registry.js';
import { TestEidProvider } from './test-eid/test-eid.provider.js';

/** Registers the schemes of this environment; the test eID exists only in customer-test. */
@Module({})
export class EidModule {
  static forRoot(config: AppConfig): DynamicModule {
    const schemes = config.isProduction ? [] : [TestEidProvider];
    return {
      module: EidModule,
      global: true,
      providers: [
        ...schemes,
        { provide: EID_PROVIDERS, inject: schemes, useFactory: (...providers: EidProvider[]) => providers },
        EidRegistry,
      ],
      exports: [EidRegistry],
    };
  }
}
