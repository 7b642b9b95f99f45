import { Controller, Get, Header, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { FAVICON_SVG } from '../common/pages/favicon.js';
import type { Request, Response } from 'express';
import { SWAGGER_PATH } from '../common/http/openapi-paths.js';
import { pageSiteOf, type PageSite } from '../common/pages/layout.js';
import { APP_CONFIG, type AppConfig } from '../config/load-config.js';
import { htmlLang, pickLocale } from '../i18n/locales.js';
import { DISCOVERY_PATH } from '../oidc/provider/routes.js';
import { landingPage, type LandingLinks } from './landing-page.js';

/**
 * The base URL (GET /): a page in the person's language for a browser (ui_locales or Accept-Language), the same
 * links as JSON for a client that asks for JSON. The base URL used to answer 404.
 */
@ApiTags('service documentation')
@Controller()
export class LandingController {
  private readonly site: PageSite;
  private readonly links: LandingLinks;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.site = pageSiteOf(config);
    this.links = {
      documentation: `${config.baseUrl}/docs`,
      discovery: `${config.baseUrl}${DISCOVERY_PATH}`,
      adminApi: `${config.baseUrl}/${SWAGGER_PATH}`,
    };
  }

  @Get()
  @ApiOperation({ summary: 'The base URL: a short page in the reader’s language (HTML), or where to start as JSON (Accept: application/json)' })
  @ApiOkResponse({ description: 'HTML by default; with Accept: application/json, { documentation, discovery, admin_api }' })
  landing(@Req() req: Request, @Res() res: Response): void {
    res.setHeader('Vary', 'Accept, Accept-Language');
    res.setHeader('Cache-Control', 'no-cache');
    if (req.accepts(['text/html', 'application/json']) === 'application/json') {
      res.status(200).json({ documentation: this.links.documentation, discovery: this.links.discovery, admin_api: this.links.adminApi });
      return;
    }
    const locale = pickLocale(undefined, req.query.ui_locales, req.headers['accept-language']);
    res.setHeader('Content-Language', htmlLang(locale));
    res
      .status(200)
      .type('html')
      .send(landingPage(this.site, locale, this.links));
  }

  /** What a browser asks for when a page links no icon (a JSON document, a file): ours, as SVG, said so by its type. */
  @Get('favicon.ico')
  @ApiExcludeEndpoint()
  @Header('Content-Type', 'image/svg+xml')
  @Header('Cache-Control', 'public, max-age=86400')
  favicon(): string {
    return FAVICON_SVG;
  }
}
