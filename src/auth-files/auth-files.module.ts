import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module.js';
import { MerchantsModule } from '../merchants/merchants.module.js';
import { OidcModule } from '../oidc/oidc.module.js';
import { VerifierModule } from '../schemes/document-verifier/verifier.module.js';
import { AuthFilesController } from './auth-files.controller.js';
import { AuthFilesService } from './auth-files.service.js';
import { AuthFilesJwtSigner } from './auth-files-jwt.js';
import { PadesSignerService } from './signing/pades-signer.service.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PadesTestSignerEntity } from './signing/pades-test-signer.entity.js';

/**
 * Auth-files (spec 4.8): PDF and PNG evidence of a document verification. Reads sealed records through the
 * verifier's records service; pdf/ lays out and encrypts the report, images/ converts the pictures, signing/
 * signs it (PAdES B-B: CMS built with @peculiar/asn1-cms).
 */
@Module({
  imports: [TypeOrmModule.forFeature([PadesTestSignerEntity]), AdminModule, MerchantsModule, OidcModule, VerifierModule],
  controllers: [AuthFilesController],
  providers: [AuthFilesService, AuthFilesJwtSigner, PadesSignerService],
})
export class AuthFilesModule {}
