import { Inject, Injectable } from '@nestjs/common';
import { DocumentEvidence } from '../broker/spi/document-evidence/document-evidence.js';
import { APP_CONFIG, type AppConfig } from '../config/load-config.js';
import { DISCOVERY_PATH, OIDC_ROUTES } from '../oidc/provider/routes.js';
import { serviceDocsPage } from './service-docs-page.js';

@Injectable()
export class ServiceDocsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly evidence: DocumentEvidence,
  ) {}

  page(): string {
    const base = this.config.baseUrl;
    return serviceDocsPage(this.evidence.matchLevels(), this.evidence.eidasHighSetting, {
      discovery: `${base}${DISCOVERY_PATH}`,
      jwks: `${base}${OIDC_ROUTES.jwks}`,
      adminDocs: `${base}/admin/docs`,
      matchLevelsJson: `${base}/docs/face-match-levels.json`,
    });
  }
}
