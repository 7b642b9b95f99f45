import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { FAVICON_SVG } from './assets/favicon.js';
import { WAIT_FOR_PHONE_JS } from './assets/wait-for-phone.js';

/** The broker pages' only files besides the pages themselves, all from our origin. */
@ApiExcludeController()
@Controller('its/assets')
export class AssetsController {
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
}
