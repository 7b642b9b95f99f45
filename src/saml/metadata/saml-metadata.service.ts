import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { signRoot } from '../assertion/saml-signer.js';
import { SamlKeysService } from '../keys/saml-keys.service.js';
import { SAML_PATHS, samlEntityId } from '../saml-entity.js';
import { samlMetadata } from './saml-metadata.js';

/**
 * A week: an SP whose metadata fetches fail (we are down, its network is) keeps trusting the copy it has for
 * that long, and a document taken from a log or a cache stops being accepted after it.
 */
export const METADATA_VALIDITY_MS = 7 * 24 * 3600_000;
/** How often an SP should fetch again: a few times a day, so a new certificate is seen well within validUntil. */
export const METADATA_CACHE_DURATION = 'PT6H';
/** Signed once an hour (the HTTP max-age), not per request: the URL is public and unauthenticated. */
const RESIGN_MS = 3600_000;

@Injectable()
export class SamlMetadataService {
  private signed?: { xml: string; at: number };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: SamlKeysService,
    private readonly clock: Clock,
  ) {}

  /**
   * The metadata with an enveloped signature by the SAML signing key (so an SP can pin our certificate with a
   * SignatureMetadataFilter), validUntil and cacheDuration. Consumers that do not check signatures read it as
   * before: ds:Signature is the schema's first child of EntityDescriptor.
   */
  async document(): Promise<string> {
    const now = this.clock.now().getTime();
    if (this.signed && now - this.signed.at < RESIGN_MS) return this.signed.xml;
    const key = await this.keys.signingKey();
    const unsigned = samlMetadata({
      entityId: samlEntityId(this.config),
      certificatePem: key.certificatePem,
      ssoUrl: `${this.config.baseUrl}${SAML_PATHS.sso}`,
      artifactResolutionUrl: `${this.config.baseUrl}${SAML_PATHS.artifactResolution}`,
      id: `_${randomBytes(16).toString('hex')}`,
      validUntil: new Date(now + METADATA_VALIDITY_MS),
      cacheDuration: METADATA_CACHE_DURATION,
    });
    const xml = signRoot(unsigned, 'ID', key, 'prepend');
    this.signed = { xml, at: now };
    return xml;
  }
}
