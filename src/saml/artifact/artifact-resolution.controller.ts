import { Controller, Headers, HttpCode, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ArtifactResolutionService } from './artifact-resolution.service.js';
import { SoapFaultFilter } from './soap-fault.filter.js';

/** Browser/Artifact resolution: SOAP 1.1 over HTTP, server to server (listed in /saml/metadata). */
@ApiExcludeController()
@Controller('saml/artifact')
@UseFilters(SoapFaultFilter)
export class ArtifactResolutionController {
  constructor(private readonly resolution: ArtifactResolutionService) {}

  @Post()
  @HttpCode(200)
  async resolve(@Headers('authorization') authorization: string | undefined, @Req() req: Request, @Res() res: Response): Promise<void> {
    const soap = await this.resolution.resolve(authorization, req.body);
    res.type('text/xml').set('Cache-Control', 'no-store').set('Pragma', 'no-cache').send(soap);
  }
}
