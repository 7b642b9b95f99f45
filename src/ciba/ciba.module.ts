import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module.js';
import { DocumentEvidenceModule } from '../broker/spi/document-evidence/document-evidence.js';
import { MerchantsModule } from '../merchants/merchants.module.js';
import { OidcModule } from '../oidc/oidc.module.js';
import { CibaAppsAdminController } from './admin-api/ciba-apps-admin.controller.js';
import { CibaAppController } from './app-api/ciba-app.controller.js';
import { CibaAppService } from './app-api/ciba-app.service.js';
import { LongPolls } from './app-api/long-polls.js';
import { CibaPurgeService } from './ciba-purge.service.js';
import { AppBindingsService } from './bindings/app-bindings.service.js';
import { CibaCancelService } from './engine/ciba-cancel.service.js';
import { CibaCompletionService } from './engine/ciba-completion.service.js';
import { CibaEngineHooks } from './engine/ciba-engine.hooks.js';
import { CibaPushTokensService } from './engine/ciba-push-tokens.service.js';
import { CibaOutboxService } from './outbox/ciba-outbox.service.js';
import { CibaRequestsService } from './requests/ciba-requests.service.js';
import { ProvisioningCodes } from './requests/provisioning-codes.js';
import { CibaTestPageController } from './test-page/ciba-test-page.controller.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CibaRequestEntity } from './requests/ciba-request.entity.js';
import { AppBindingEntity } from './bindings/app-binding.entity.js';
import { OutboxEntity } from './outbox/outbox.entity.js';

/**
 * CIBA (spec 4.3): the engine's backchannel endpoint with our hooks, app bindings, the app's side of a request,
 * completion through a document verification (or, in customer-test, the test page), cancel, the ping/push
 * outbox, and the purge of finished rows.
 */
@Module({
  imports: [TypeOrmModule.forFeature([CibaRequestEntity, AppBindingEntity, OutboxEntity]), AdminModule, OidcModule, MerchantsModule, DocumentEvidenceModule],
  controllers: [CibaAppController, CibaTestPageController, CibaAppsAdminController],
  providers: [
    CibaPurgeService,
    CibaEngineHooks,
    CibaCancelService,
    CibaPushTokensService,
    CibaRequestsService,
    AppBindingsService,
    CibaCompletionService,
    CibaOutboxService,
    CibaAppService,
    LongPolls,
    ProvisioningCodes,
  ],
})
export class CibaModule {}
