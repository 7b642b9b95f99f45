import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { StatesVerification, VerificationOffer } from '../../broker/spi/identity-assurance/identity-verification.js';
import { EID_LOGIN_RECORD } from '../../broker/spi/identity-assurance/predefined-values.js';
import { DataSource, Repository } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { ExclusiveJobs } from '../../database/exclusive-jobs.js';
import { EidSchemeSourceProvider, type EidProvider, type EidSchemeSource } from '../../broker/spi/eid-provider.js';
import { PendingRedirectsService } from '../../broker/spi/redirects/pending-redirects.service.js';
import { EidSchemeEntity } from './eid-scheme.entity.js';
import { UpstreamClientKeysService } from './keys/upstream-client-keys.service.js';
import { UpstreamOidcScheme } from './upstream-oidc.scheme.js';
import type { UpstreamSchemeSettings } from './upstream-scheme-settings.js';

export const EID_CALLBACK_PATH = '/its/eid/callback';
export const EID_JWKS_PATH = '/its/eid/jwks';
export const schemeSecretContext = (id: string) => `eid-scheme-secret:${id}`;

/** How long another instance may go on with a scheme's old settings after a change made elsewhere. */
const CACHE_MS = 5_000;
const PURGE_MS = 10 * 60 * 1000;

/**
 * The upstream schemes as the registry sees them: the enabled rows of `eid_schemes`, each made into a
 * scheme instance (kept while its row is unchanged, so discovery is not fetched at every login).
 */
@Injectable()
@EidSchemeSourceProvider()
export class UpstreamSchemesSource implements EidSchemeSource, OnModuleInit, StatesVerification {
  /**
   * Every upstream login states itself as an electronic record; an upstream's own verified_claims may carry evidence of
   * other kinds, which no metadata can know before it arrives (docs/upstream-oidc.md#verified_claims).
   */
  readonly verificationOffer: VerificationOffer = { evidence: ['electronic_record'], records: [EID_LOGIN_RECORD] };
  private readonly repo: Repository<EidSchemeEntity>;
  private instances = new Map<string, UpstreamOidcScheme>();
  private loadedAt = 0;

  constructor(
    dataSource: DataSource,
    private readonly secretBox: SecretBox,
    private readonly pending: PendingRedirectsService,
    private readonly keys: UpstreamClientKeysService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ExclusiveJobs,
  ) {
    this.repo = dataSource.getRepository(EidSchemeEntity);
  }

  onModuleInit(): void {
    this.jobs.schedule('pending-redirect-purge', PURGE_MS, () => this.pending.purgeExpired());
  }

  /** After a change on this instance: the next request sees it at once. */
  invalidate(): void {
    this.loadedAt = 0;
  }

  async schemes(): Promise<EidProvider[]> {
    if (Date.now() - this.loadedAt > CACHE_MS) {
      const rows = await this.repo.find({ where: { enabled: true }, order: { createdAt: 'ASC' } });
      const next = new Map<string, UpstreamOidcScheme>();
      for (const row of rows) {
        const settings = this.settingsOf(row);
        const current = this.instances.get(row.id);
        next.set(row.id, current?.settings.version === settings.version ? current : this.build(settings));
      }
      this.instances = next;
      this.loadedAt = Date.now();
    }
    return [...this.instances.values()];
  }

  private build(settings: UpstreamSchemeSettings): UpstreamOidcScheme {
    return new UpstreamOidcScheme(settings, {
      pending: this.pending,
      keys: this.keys,
      callbackUrl: `${this.config.baseUrl}${EID_CALLBACK_PATH}`,
      subjectSecret: this.config.subjectSecret,
      allowHttp: !this.config.isProduction,
      allowLoopback: !this.config.isProduction,
    });
  }

  private settingsOf(row: EidSchemeEntity): UpstreamSchemeSettings {
    return {
      id: row.id,
      labels: row.labels,
      environment: row.environment,
      issuer: row.issuer,
      clientId: row.clientId,
      clientSecret: row.clientSecretSealed ? this.secretBox.decryptText(row.clientSecretSealed, schemeSecretContext(row.id)) : undefined,
      tokenEndpointAuthMethod: row.tokenEndpointAuthMethod,
      tokenEndpointAuthSigningAlg: row.tokenEndpointAuthSigningAlg ?? 'RS256',
      idTokenEncryption:
        row.idTokenEncryptedResponseAlg && row.idTokenEncryptedResponseEnc
          ? { alg: row.idTokenEncryptedResponseAlg, enc: row.idTokenEncryptedResponseEnc }
          : undefined,
      scope: row.scope,
      acrValues: row.acrValues,
      acrMap: row.acrMap,
      passUiLocales: row.passUiLocales,
      passLoginHint: row.passLoginHint,
      userinfo: row.userinfo,
      amr: row.amr,
      subjectClaim: row.subjectClaim,
      subjectMode: row.subjectMode,
      claimMappers: row.claimMappers,
      version: `${row.updatedAt.toISOString()}:${row.clientSecretSealed ?? ''}`,
    };
  }
}
