import { Module } from '@nestjs/common';
import { AdminModule } from '../../admin/admin.module.js';
import { EidSchemesController } from './admin/eid-schemes.controller.js';
import { EidSchemesService } from './admin/eid-schemes.service.js';
import { UpstreamClientKeysService } from './keys/upstream-client-keys.service.js';
import { UpstreamJwksController } from './keys/upstream-jwks.controller.js';
import { UpstreamSchemesSource } from './upstream-schemes.source.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EidSchemeEntity } from './eid-scheme.entity.js';
import { UpstreamClientKeyEntity } from './keys/upstream-client-key.entity.js';

/**
 * Upstream OpenID Connect schemes: configured through the admin API, registered with the eID registry as
 * a source (the registry imports no scheme). The callback they come back to is the broker's (oidc/interaction).
 */
@Module({
  imports: [TypeOrmModule.forFeature([EidSchemeEntity, UpstreamClientKeyEntity]), AdminModule],
  controllers: [EidSchemesController, UpstreamJwksController],
  providers: [UpstreamSchemesSource, EidSchemesService, UpstreamClientKeysService],
})
export class UpstreamOidcModule {}
