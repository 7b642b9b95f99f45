import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SamlMetadataService } from './saml-metadata.service.js';

/** Public SAML metadata (issue 12 point 5); merchants load it into their service provider. */
@ApiExcludeController()
@Controller('saml')
export class SamlMetadataController {
  constructor(private readonly metadata: SamlMetadataService) {}

  @Get('metadata')
  @Header('Content-Type', 'application/samlmetadata+xml; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  get(): Promise<string> {
    return this.metadata.document();
  }
}
