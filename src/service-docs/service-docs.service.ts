import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/load-config.js';
import { DISCOVERY_PATH, OIDC_ROUTES } from '../oidc/provider/routes.js';
import { MatchLevelsReporter } from '../schemes/document-verifier/scheme/match-levels-report.js';
import { serviceDocsPage } from './service-docs-page.js';

@Injectable()
export class ServiceDocsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly levels: MatchLevelsReporter,
  ) {}

  page(): string {
    const base = this.config.baseUrl;
    return serviceDocsPage(this.levels.report(), {
      discovery: `${base}${DISCOVERY_PATH}`,
      jwks: `${base}${OIDC_ROUTES.jwks}`,
      adminDocs: `${base}/admin/docs`,
      matchLevelsJson: `${base}/docs/face-match-levels.json`,
    });
  }
}
