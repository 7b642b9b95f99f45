import { Controller, Get, Header, Inject, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { NotFoundError } from '../../common/errors/app-error.js';
import { sendImmutableImage } from '../../common/http/immutable-image.js';
import { operatorLogoPath } from '../../common/pages/layout.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { FAVICON_SVG } from '../../common/pages/favicon.js';
import { WAIT_FOR_PHONE_JS } from './assets/wait-for-phone.js';

/** The broker pages' only files besides the pages themselves, all from our origin. */
@ApiExcludeController()
@Controller('its/assets')
export class AssetsController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get('wait-for-phone.js')
  @Header('Content-Type', 'application/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  waitForPhone(): string {
    return WAIT_FOR_PHONE_JS;
  }

  @Get('favicon.svg')
  @Header('Content-Type', 'image/svg+xml')
  @Header('Cache-Control', 'public, max-age=86400')
  favicon(): string {
    return FAVICON_SVG;
  }

  /** The operator's logo (OPERATOR_LOGO_FILE, checked at start): only at its current address, kept by browsers for good. */
  @Get('operator-logo/:version')
  operatorLogo(@Param('version') version: string, @Res() res: Response): void {
    const logo = this.config.branding.logo;
    if (!logo || operatorLogoPath(logo.sha256) !== `/its/assets/operator-logo/${version}`) throw new NotFoundError('logo');
    sendImmutableImage(res, logo.contentType, logo.bytes);
  }
}
