import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '../config/load-config.js';
import { LoginFrontDoors } from './login/login-front-doors.js';
import { LoginRequests } from './login/login-requests.js';
import { LoginTransaction } from './login/login-transaction.js';
import { BrokeredLoginsService } from './logins/brokered-logins.service.js';
import { PendingRedirectsService } from './spi/redirects/pending-redirects.service.js';
import { EidRegistry } from './schemes/eid-registry.js';
import { SchemeCatalog } from './spi/eid-provider.js';
import { EidSchemesDiscovery } from './schemes/eid-schemes-discovery.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BrokeredLoginEntity } from './logins/brokered-login.entity.js';
import { PendingRedirectEntity } from './spi/redirects/pending-redirect.entity.js';

/**
 * The broker core: the login transaction, the front doors' logins (LoginRequests), the eID scheme registry, the pending redirects of redirect schemes and
 * the brokered logins.
 * Schemes sit below it and are found by their marks (EidSchemesDiscovery); the core imports none of them.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([BrokeredLoginEntity, PendingRedirectEntity]), DiscoveryModule],
  providers: [
    { provide: EidRegistry, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new EidRegistry([], config) },
    { provide: SchemeCatalog, useExisting: EidRegistry },
    EidSchemesDiscovery,
    PendingRedirectsService,
    BrokeredLoginsService,
    LoginTransaction,
    LoginFrontDoors,
    LoginRequests,
  ],
  exports: [EidRegistry, SchemeCatalog, PendingRedirectsService, BrokeredLoginsService, LoginTransaction, LoginRequests],
})
export class BrokerModule {}
