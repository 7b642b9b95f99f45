import { Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { ArtifactResolutionService } from './artifact-resolution.service.js';
import { ForwardedClientCertificates } from '../../common/http/forwarded-client-certificate.js';

/** Browser/Artifact resolution: SOAP 1.1 over HTTP, server to server (listed in /saml/metadata). */
@ApiExcludeController()
@Controller('saml/artifact')
export class ArtifactResolutionController {
  /** Undefined unless CLIENT_CERT_HEADER and CLIENT_CERT_PROXIES are set. */
  private readonly certificates?: ForwardedClientCertificates;

  constructor(
    private readonly resolution: ArtifactResolutionService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.certificates = ForwardedClientCertificates.of(config.clientCertificate);
  }

  @Post()
  @HttpCode(200)
  async resolve(@Req() req: Request, @Res() res: Response): Promise<void> {
    const forwardedCertificate = this.certificates?.certificateOf(req, 'saml artifact resolution');
    const soap = await this.resolution.resolve({ authorization: req.headers.authorization, forwardedCertificate }, req.body);
    res.type('text/xml').set('Cache-Control', 'no-store').set('Pragma', 'no-cache').send(soap);
  }
}
