import { Module } from '@nestjs/common';
import { MerchantsModule } from '../merchants/merchants.module.js';
import { ArtifactResolutionController } from './artifact/artifact-resolution.controller.js';
import { ArtifactResolutionService } from './artifact/artifact-resolution.service.js';
import { SamlArtifactsService } from './artifact/saml-artifacts.service.js';
import { SamlKeysService } from './keys/saml-keys.service.js';
import { SamlMetadataController } from './metadata/saml-metadata.controller.js';
import { SamlMetadataService } from './metadata/saml-metadata.service.js';
import { SamlAssetsController } from './saml-assets.controller.js';
import { SamlSsoService } from './sso/saml-sso.service.js';
import { SamlTransactionsService } from './sso/saml-transactions.service.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SamlSigningKeyEntity } from './keys/saml-signing-key.entity.js';
import { SamlTransactionEntity } from './sso/saml-transaction.entity.js';
import { SamlArtifactEntity } from './artifact/saml-artifact.entity.js';

/**
 * The SAML 1.1 front door: Browser/POST and Browser/Artifact single sign-on through the same broker pages and eID
 * schemes as OIDC (how, and why that way: SamlSsoService), assertions released by the verifier-claims
 * scope rules, signed with a key of its own, the artifact back-channel (SOAP), and its metadata.
 */
@Module({
  imports: [TypeOrmModule.forFeature([SamlSigningKeyEntity, SamlTransactionEntity, SamlArtifactEntity]), MerchantsModule],
  controllers: [SamlMetadataController, SamlAssetsController, ArtifactResolutionController],
  providers: [SamlKeysService, SamlTransactionsService, SamlSsoService, SamlMetadataService, SamlArtifactsService, ArtifactResolutionService],
  exports: [SamlSsoService],
})
export class SamlModule {}
