import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { SamlKeysService } from '../keys/saml-keys.service.js';
import { SAML_PATHS, samlEntityId } from '../saml-entity.js';
import { samlMetadata } from './saml-metadata.js';

@Injectable()
export class SamlMetadataService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: SamlKeysService,
  ) {}

  async document(): Promise<string> {
    return samlMetadata({
      entityId: samlEntityId(this.config),
      certificatePem: await this.keys.certificatePem(),
      ssoUrl: `${this.config.baseUrl}${SAML_PATHS.sso}`,
      artifactResolutionUrl: `${this.config.baseUrl}${SAML_PATHS.artifactResolution}`,
    });
  }
}
