import { Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { logger } from '../../common/logging/logger.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { ArtifactResolutionService } from './artifact-resolution.service.js';
import { ForwardedClientCertificates } from './forwarded-client-certificate.js';

/** Browser/Artifact resolution: SOAP 1.1 over HTTP, server to server (listed in /saml/metadata). */
@ApiExcludeController()
@Controller('saml/artifact')
export class ArtifactResolutionController {
  /** Undefined unless SAML_CLIENT_CERT_HEADER and SAML_CLIENT_CERT_PROXIES are set. */
  private readonly certificates?: ForwardedClientCertificates;

  constructor(
    private readonly resolution: ArtifactResolutionService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const setting = config.saml.clientCertificate;
    if (setting) this.certificates = new ForwardedClientCertificates(setting.header, setting.proxies);
  }

  @Post()
  @HttpCode(200)
  async resolve(@Req() req: Request, @Res() res: Response): Promise<void> {
    const forwardedCertificate = this.certificates?.fromTrustedProxy(req.socket.remoteAddress, req.headers);
    if (forwardedCertificate === undefined && this.certificates?.carriesHeader(req.headers))
      logger.warn('saml artifact resolution: a client certificate header from an address that is not a trusted proxy was ignored');
    const soap = await this.resolution.resolve({ authorization: req.headers.authorization, forwardedCertificate }, req.body);
    res.type('text/xml').set('Cache-Control', 'no-store').set('Pragma', 'no-cache').send(soap);
  }
}
