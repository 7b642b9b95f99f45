import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AdminModule } from '../admin/admin.module.js';
import { MerchantsModule } from '../merchants/merchants.module.js';
import { AssetsController } from './interaction/assets.controller.js';
import { EidCallbackController } from './interaction/eid-callback.controller.js';
import { InteractionController } from './interaction/interaction.controller.js';
import { EngineLoginCarrier } from './interaction/engine-login-carrier.js';
import { InteractionService } from './interaction/interaction.service.js';
import { EngineInteractionResults } from './interaction/engine-interaction-results.js';
import { SigningKeysAdminService } from './keys/signing-keys-admin.service.js';
import { SigningKeysController } from './keys/signing-keys.controller.js';
import { SigningKeysService } from './keys/signing-keys.service.js';
import { SigningKeyChanges } from './keys/signing-key-changes.js';
import { CibaHooksSlot } from './provider/ciba-hooks.js';
import { OidcProviderService } from './provider/oidc-provider.service.js';
import { TokenInvalidationController } from './token-invalidation/token-invalidation.controller.js';
import { TokenInvalidationService } from './token-invalidation/token-invalidation.service.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OidcPayloadEntity } from './storage/oidc-payload.entity.js';
import { SigningKeyEntity } from './keys/signing-key.entity.js';

/** The OIDC front door: oidc-provider as the engine, our storage, keys, broker pages and spec-specific endpoints. */
@Module({
  imports: [TypeOrmModule.forFeature([OidcPayloadEntity, SigningKeyEntity]), AdminModule, MerchantsModule, DiscoveryModule],
  controllers: [InteractionController, EidCallbackController, AssetsController, TokenInvalidationController, SigningKeysController],
  providers: [
    OidcProviderService,
    SigningKeysService,
    SigningKeyChanges,
    SigningKeysAdminService,
    InteractionService,
    EngineInteractionResults,
    EngineLoginCarrier,
    TokenInvalidationService,
    CibaHooksSlot,
  ],
  exports: [OidcProviderService, CibaHooksSlot, SigningKeysService],
})
export class OidcModule {}
