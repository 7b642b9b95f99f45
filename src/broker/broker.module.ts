import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '../config/load-config.js';
import { PendingRedirectsService } from './redirects/pending-redirects.service.js';
import { EidRegistry } from './schemes/eid-registry.js';
import { EidSchemesDiscovery } from './schemes/eid-schemes-discovery.js';

/**
 * The broker core: the eID scheme registry and the pending redirects of redirect schemes. Schemes sit below
 * it and are found by their marks (EidSchemesDiscovery); the core imports none of them.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [
    { provide: EidRegistry, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new EidRegistry([], config) },
    EidSchemesDiscovery,
    PendingRedirectsService,
  ],
  exports: [EidRegistry, PendingRedirectsService],
})
export class BrokerModule {}
