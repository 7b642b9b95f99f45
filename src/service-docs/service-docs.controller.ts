import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DocumentEvidence } from '../broker/spi/document-evidence/document-evidence.js';
import type { MatchLevelsReport } from '../broker/spi/document-evidence/match-levels.js';
import { ServiceDocsService } from './service-docs.service.js';

/** The page the discovery document names as service_documentation, and its figures as JSON. */
@ApiTags('service documentation')
@Controller('docs')
export class ServiceDocsController {
  constructor(
    private readonly docs: ServiceDocsService,
    private readonly evidence: DocumentEvidence,
  ) {}

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'Service documentation (HTML): where to start, and which face match levels our data validates' })
  page(): string {
    return this.docs.page();
  }

  @Get('face-match-levels.json')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'The face match levels of spec 2.2 for the running engine: threshold, validated or extrapolated, measured rates' })
  @ApiOkResponse({ description: 'engine, calibration data, one entry per level 1-9, and the level the eIDAS-high acr needs' })
  matchLevels(): MatchLevelsReport {
    return this.evidence.matchLevels();
  }
}
