import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AUTO_POST_JS } from './pages/post-form-page.js';

/** The same-origin script of the Browser/POST page (our CSP allows no inline script). */
@ApiExcludeController()
@Controller('saml/assets')
export class SamlAssetsController {
  @Get('auto-post.js')
  @Header('Content-Type', 'application/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  autoPost(): string {
    return AUTO_POST_JS;
  }
}
