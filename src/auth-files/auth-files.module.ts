import { Module } from '@nestjs/common';
import { DocumentEvidenceModule } from '../broker/spi/document-evidence/document-evidence.js';
import { AdminModule } from '../admin/admin.module.js';
import { MerchantsModule } from '../merchants/merchants.module.js';
import { OidcModule } from '../oidc/oidc.module.js';
import { AuthFilesController } from './auth-files.controller.js';
import { AuthFilesService } from './auth-files.service.js';
import { AuthFilesJwtSigner } from './auth-files-jwt.js';
import { PadesSignerService } from './signing/pades-signer.service.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PadesTestSignerEntity } from './signing/pades-test-signer.entity.js';

/**
 * Auth-files (spec 4.8): PDF and PNG evidence of a document verification. Reads sealed records through the
 * document verifier's evidence (broker SPI); pdf/ lays out and encrypts the report, images/ converts the pictures, signing/
 * signs it (PAdES B-B: CMS built with @peculiar/asn1-cms).
 */
@Module({
  imports: [TypeOrmModule.forFeature([PadesTestSignerEntity]), AdminModule, MerchantsModule, OidcModule, DocumentEvidenceModule],
  controllers: [AuthFilesController],
  providers: [AuthFilesService, AuthFilesJwtSigner, PadesSignerService],
})
export class AuthFilesModule {}
