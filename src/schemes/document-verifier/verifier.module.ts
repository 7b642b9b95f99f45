import { Module } from '@nestjs/common';
import { AdminModule } from '../../admin/admin.module.js';
import { AppApiController } from './app-api/app-api.controller.js';
import { AppSessionGuard } from './app-api/app-session.guard.js';
import { VerifierAppService } from './app-api/verifier-app.service.js';
import { VerificationRecordsService } from './records/verification-records.service.js';
import { DocumentVerifierProvider } from './scheme/document-verifier.provider.js';
import { MatchLevelsReporter } from './scheme/match-levels-report.js';
import { VerifierEvidence } from './scheme/verifier-evidence.js';
import { VerifierStatusController } from './scheme/verifier-status.controller.js';
import { VerificationErasureController } from './records/verification-erasure.controller.js';
import { VerificationSessionsService } from './session/verification-sessions.service.js';
import { SpecimenAuthorityService } from './specimen/specimen-authority.service.js';
import { SpecimenDocumentsController } from './specimen/specimen-documents.controller.js';
import { SpecimenDocumentsService } from './specimen/specimen-documents.service.js';
import { ChipVerificationService } from './verification/chip-verification.service.js';
import { faceEngineProviders } from './verification/face-engine.provider.js';
import { DocumentFaceTemplates } from './verification/document-face-templates.js';
import { FaceVerificationService } from './verification/face-verification.service.js';
import { FaceWorkQueue } from './verification/face-work-queue.js';
import { TrustStoreProvider } from './verification/trust-store.provider.js';
import { VerifierPurgeService } from './verifier-purge.service.js';
import { VerifierObservations } from './verifier-observations.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { VerificationSessionEntity } from './session/verification-session.entity.js';
import { VerificationRecordEntity } from './records/verification-record.entity.js';
import { SpecimenAuthorityEntity } from './specimen/specimen-authority.entity.js';

/** The document verifier: app API, chip and face verification, sealed records with retention, the eID scheme. */
@Module({
  imports: [TypeOrmModule.forFeature([VerificationSessionEntity, VerificationRecordEntity, SpecimenAuthorityEntity]), AdminModule],
  controllers: [AppApiController, VerifierStatusController, SpecimenDocumentsController, VerificationErasureController],
  providers: [
    VerificationSessionsService,
    VerificationRecordsService,
    VerifierAppService,
    AppSessionGuard,
    ChipVerificationService,
    FaceVerificationService,
    DocumentFaceTemplates,
    FaceWorkQueue,
    ...faceEngineProviders,
    TrustStoreProvider,
    SpecimenAuthorityService,
    SpecimenDocumentsService,
    DocumentVerifierProvider,
    VerifierPurgeService,
    MatchLevelsReporter,
    VerifierEvidence,
    VerifierObservations,
  ],
  exports: [DocumentVerifierProvider, VerificationRecordsService, VerificationSessionsService, MatchLevelsReporter],
})
export class VerifierModule {}
