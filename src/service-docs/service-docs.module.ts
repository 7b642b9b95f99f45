import { Module } from '@nestjs/common';
import { VerifierModule } from '../verifier/verifier.module.js';
import { ServiceDocsController } from './service-docs.controller.js';
import { ServiceDocsService } from './service-docs.service.js';

/** The public service documentation (discovery's service_documentation). */
@Module({
  imports: [VerifierModule],
  controllers: [ServiceDocsController],
  providers: [ServiceDocsService],
})
export class ServiceDocsModule {}
