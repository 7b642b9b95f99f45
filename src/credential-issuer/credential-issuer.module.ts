import { Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminModule } from '../admin/admin.module.js';
import { DocumentEvidenceModule } from '../broker/spi/document-evidence/document-evidence.js';
import { ExclusiveJobs } from '../database/exclusive-jobs.js';
import { MerchantsModule } from '../merchants/merchants.module.js';
import { AuthorizeController } from './authorization/authorize.controller.js';
import { CredentialAuthorizationEntity } from './authorization/credential-authorization.entity.js';
import { CredentialAuthorizationsService } from './authorization/credential-authorizations.service.js';
import { WalletSignIn } from './authorization/wallet-sign-in.js';
import { CredentialController } from './credential/credential.controller.js';
import { CredentialIssuingService } from './credential/credential-issuing.service.js';
import { CredentialIssuanceEntity } from './issuances/credential-issuance.entity.js';
import { CredentialIssuancesService } from './issuances/credential-issuances.service.js';
import { ISSUER_STATE_CONTROLLERS, ISSUER_STATE_ENTITIES, ISSUER_STATE_PROVIDERS } from './issuer-state.js';
import { IssuerMetadataController } from './metadata/issuer-metadata.controller.js';
import { SingleUseValuesService } from './nonces/single-use-values.service.js';
import { CredentialOffersController } from './offer/credential-offers.controller.js';
import { CredentialOffersService } from './offer/credential-offers.service.js';
import { SignInCredentialOffers } from './offer/sign-in-offers.js';
import { DpopProofsService } from './token/dpop-proofs.service.js';
import { TokenController } from './token/token.controller.js';
import { OwnCredentialTrust } from './trust/own-credential-trust.js';

const PURGE_MS = 10 * 60_000;

/**
 * The credential issuer (OpenID4VCI 1.0, docs/credential-issuer.md): a front door that issues the identity a document
 * verification established as an SD-JWT VC into the person's wallet, its own authorization server (pre-authorized
 * code, DPoP), the issuer keys, the status lists and revocation.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([CredentialIssuanceEntity, CredentialAuthorizationEntity, ...ISSUER_STATE_ENTITIES]),
    DocumentEvidenceModule,
    AdminModule,
    MerchantsModule,
  ],
  controllers: [IssuerMetadataController, TokenController, AuthorizeController, CredentialController, CredentialOffersController, ...ISSUER_STATE_CONTROLLERS],
  providers: [
    CredentialIssuancesService,
    CredentialAuthorizationsService,
    WalletSignIn,
    SingleUseValuesService,
    DpopProofsService,
    CredentialIssuingService,
    CredentialOffersService,
    SignInCredentialOffers,
    OwnCredentialTrust,
    ...ISSUER_STATE_PROVIDERS,
  ],
})
export class CredentialIssuerModule implements OnModuleInit {
  constructor(
    private readonly jobs: ExclusiveJobs,
    private readonly issuances: CredentialIssuancesService,
    private readonly authorizations: CredentialAuthorizationsService,
  ) {}

  onModuleInit(): void {
    this.jobs.schedule('credential-issuer-purge', PURGE_MS, () => Promise.all([this.issuances.purge(), this.authorizations.purge()]));
  }
}
