import { Module } from '@nestjs/common';
import { DocumentEvidenceModule } from '../broker/spi/document-evidence/document-evidence.js';
import { LandingController } from './landing.controller.js';
import { ServiceDocsController } from './service-docs.controller.js';
import { ServiceDocsService } from './service-docs.service.js';

/** The public service documentation (discovery's service_documentation) and the base URL's page. */
@Module({
  imports: [DocumentEvidenceModule],
  controllers: [ServiceDocsController, LandingController],
  providers: [ServiceDocsService],
})
export class ServiceDocsModule {}
