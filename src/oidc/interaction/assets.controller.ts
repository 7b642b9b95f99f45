import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { WAIT_FOR_PHONE_JS } from './assets/wait-for-phone.js';

@ApiExcludeController()
@Controller('its/assets')
export class AssetsController {
  @Get('wait-for-phone.js')
  @Header('Content-Type', 'application/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  waitForPhone(): string {
    return WAIT_FOR_PHONE_JS;
  }
}
