import { Inject, Injectable } from '@nestjs/common';
import { DataSource, Repository } from 'typeorm';
import type { AdminActor } from '../../../admin/admin-actor.js';
import { AuditService } from '../../../admin/audit.service.js';
import { SecretBox } from '../../../common/crypto/secret-box.js';
import { BadRequestError, NotFoundError } from '../../../common/errors/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { UI_LOCALES } from '../../../i18n/locales.js';
import { messagesFor } from '../../../i18n/messages.js';
import { ACR_EIDAS_HIGH, ACR_REQUEST_HIGH } from '../../../broker/spi/acr.js';
import { supportsAcr } from '../../../broker/spi/eid-provider.js';
import { SchemeCatalog } from '../../../broker/spi/eid-provider.js';
import { EidSchemeEntity } from '../eid-scheme.entity.js';
import type { ClaimMapperConfig } from '../mappers/index.js';
import { EID_CALLBACK_PATH, EID_JWKS_PATH, schemeSecretContext, UpstreamSchemesSource } from '../upstream-schemes.source.js';
import type { CreateEidSchemeDto, UpdateEidSchemeDto } from './dto/eid-scheme-requests.dto.js';
import type { EidSchemeDto, EidSchemeListDto } from './dto/eid-scheme-response.dto.js';
import { schemeProblems } from './eid-scheme-policy.js';
import { builtInScheme, schemeIdTaken } from './eid-schemes.errors.js';

/** DTO field → entity column, for the fields an update may send. */
const FIELDS = {
  labels: 'labels',
  environment: 'environment',
  issuer: 'issuer',
  client_id: 'clientId',
  token_endpoint_auth_method: 'tokenEndpointAuthMethod',
  token_endpoint_auth_signing_alg: 'tokenEndpointAuthSigningAlg',
  id_token_encrypted_response_alg: 'idTokenEncryptedResponseAlg',
  id_token_encrypted_response_enc: 'idTokenEncryptedResponseEnc',
  scope: 'scope',
  acr_values: 'acrValues',
  acr_map: 'acrMap',
  pass_ui_locales: 'passUiLocales',
  pass_login_hint: 'passLoginHint',
  userinfo: 'userinfo',
  amr: 'amr',
  subject_claim: 'subjectClaim',
  subject_mode: 'subjectMode',
  claim_mappers: 'claimMappers',
} as const satisfies Record<string, keyof EidSchemeEntity>;

/** Upstream eID schemes as data: create, change, disable, each audited in the same transaction. */
@Injectable()
export class EidSchemesService {
  private readonly repo: Repository<EidSchemeEntity>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
    private readonly audit: AuditService,
    private readonly registry: SchemeCatalog,
    private readonly source: UpstreamSchemesSource,
  ) {
    this.repo = dataSource.getRepository(EidSchemeEntity);
  }

  async create(dto: CreateEidSchemeDto, actor: AdminActor): Promise<EidSchemeDto> {
    if (this.registry.builtInIds().includes(dto.id)) throw schemeIdTaken(dto.id);
    const entity = this.repo.create({
      id: dto.id,
      kind: 'upstream-oidc',
      enabled: true,
      clientSecretSealed: null,
      tokenEndpointAuthMethod: 'client_secret_basic',
      tokenEndpointAuthSigningAlg: null,
      idTokenEncryptedResponseAlg: null,
      idTokenEncryptedResponseEnc: null,
      scope: 'openid',
      acrValues: [],
      acrMap: {},
      passUiLocales: true,
      passLoginHint: false,
      userinfo: false,
      amr: [dto.id],
      subjectClaim: 'sub',
      subjectMode: 'hashed',
      claimMappers: [],
    });
    const fields = this.apply(entity, dto);
    const saved = await this.dataSource.transaction(async (tx) => {
      const repo = tx.getRepository(EidSchemeEntity);
      if (await repo.existsBy({ id: dto.id })) throw schemeIdTaken(dto.id);
      const row = await repo.save(entity);
      await this.audit.record(actor, 'eid_scheme.create', 'eid_scheme', row.id, this.audited(row, fields), tx);
      return row;
    });
    this.source.invalidate();
    return this.toDto(saved);
  }

  async list(): Promise<EidSchemeListDto> {
    const rows = await this.repo.find({ order: { createdAt: 'ASC' } });
    const items = [...this.registry.builtInIds().map((id) => this.builtInDto(id)), ...rows.map((r) => this.toDto(r))];
    return { total: items.length, items };
  }

  async get(id: string): Promise<EidSchemeDto> {
    if (this.registry.builtInIds().includes(id)) return this.builtInDto(id);
    const row = await this.repo.findOneBy({ id });
    if (!row) throw new NotFoundError(`eID scheme ${id}`);
    return this.toDto(row);
  }

  update(id: string, dto: UpdateEidSchemeDto, actor: AdminActor): Promise<EidSchemeDto> {
    return this.change(id, actor, 'eid_scheme.update', (entity) => this.audited(entity, this.apply(entity, dto)));
  }

  setEnabled(id: string, enabled: boolean, actor: AdminActor): Promise<EidSchemeDto> {
    return this.change(id, actor, enabled ? 'eid_scheme.enable' : 'eid_scheme.disable', (entity) => {
      entity.enabled = enabled;
      return { enabled };
    });
  }

  private async change(id: string, actor: AdminActor, action: string, mutate: (e: EidSchemeEntity) => Record<string, unknown>): Promise<EidSchemeDto> {
    if (this.registry.builtInIds().includes(id)) throw builtInScheme(id);
    const saved = await this.dataSource.transaction(async (tx) => {
      const repo = tx.getRepository(EidSchemeEntity);
      const entity = await repo.findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!entity) throw new NotFoundError(`eID scheme ${id}`);
      const changes = mutate(entity);
      const row = await repo.save(entity);
      await this.audit.record(actor, action, 'eid_scheme', id, changes, tx);
      return row;
    });
    this.source.invalidate();
    return this.toDto(saved);
  }

  /** Copies the fields sent onto the entity, checks the result; returns the names of the fields sent. */
  private apply(entity: EidSchemeEntity, dto: UpdateEidSchemeDto): string[] {
    const sent: string[] = [];
    for (const [field, column] of Object.entries(FIELDS)) {
      const value = (dto as Record<string, unknown>)[field];
      if (value === undefined) continue;
      // "" clears a nullable setting (null itself is refused, as everywhere in this API).
      (entity as unknown as Record<string, unknown>)[column] =
        field === 'claim_mappers' ? plainMappers(value as ClaimMapperConfig[]) : value === '' ? null : value;
      sent.push(field);
    }
    if (dto.client_secret !== undefined) {
      entity.clientSecretSealed = this.secretBox.encrypt(dto.client_secret, schemeSecretContext(entity.id));
      sent.push('client_secret');
    }
    const problems = schemeProblems(entity, this.config.isProduction);
    const fields = Object.keys(problems);
    if (fields.length) throw new BadRequestError(fields.map((f) => `${f}: ${problems[f].join('; ')}`).join('; '), problems);
    return sent;
  }

  /** The audit keeps the new values of the fields sent; the secret only as "set". */
  private audited(entity: EidSchemeEntity, fields: string[]): Record<string, unknown> {
    const dto = this.toDto(entity) as unknown as Record<string, unknown>;
    return Object.fromEntries(fields.map((f) => (f === 'client_secret' ? ['client_secret_set', true] : [f, dto[f]])));
  }

  private toDto(row: EidSchemeEntity): EidSchemeDto {
    return {
      id: row.id,
      kind: 'upstream-oidc',
      labels: row.labels,
      environment: row.environment,
      enabled: row.enabled,
      issuer: row.issuer,
      client_id: row.clientId,
      client_secret_set: row.clientSecretSealed !== null,
      token_endpoint_auth_method: row.tokenEndpointAuthMethod,
      token_endpoint_auth_signing_alg: row.tokenEndpointAuthMethod === 'private_key_jwt' ? (row.tokenEndpointAuthSigningAlg ?? 'RS256') : null,
      id_token_encrypted_response_alg: row.idTokenEncryptedResponseAlg,
      id_token_encrypted_response_enc: row.idTokenEncryptedResponseEnc,
      scope: row.scope,
      acr_values: row.acrValues,
      acr_map: row.acrMap,
      reachable_acr: [...new Set(Object.values(row.acrMap))],
      pass_ui_locales: row.passUiLocales,
      pass_login_hint: row.passLoginHint,
      userinfo: row.userinfo,
      amr: row.amr,
      subject_claim: row.subjectClaim,
      subject_mode: row.subjectMode,
      claim_mappers: row.claimMappers,
      redirect_uri: `${this.config.baseUrl}${EID_CALLBACK_PATH}`,
      jwks_uri: `${this.config.baseUrl}${EID_JWKS_PATH}`,
      created_at: row.createdAt?.toISOString() ?? null,
      updated_at: row.updatedAt?.toISOString() ?? null,
    };
  }

  private builtInDto(id: string): EidSchemeDto {
    const scheme = this.registry.get(id)!;
    const labels = Object.fromEntries(UI_LOCALES.map((l) => [l, scheme.displayName(messagesFor(l), l)]));
    return {
      id,
      kind: 'built-in',
      labels,
      environment: scheme.testOnly ? 'customer-test' : 'production',
      enabled: true,
      issuer: null,
      client_id: null,
      client_secret_set: false,
      token_endpoint_auth_method: null,
      token_endpoint_auth_signing_alg: null,
      id_token_encrypted_response_alg: null,
      id_token_encrypted_response_enc: null,
      scope: null,
      acr_values: [],
      acr_map: {},
      reachable_acr: supportsAcr(scheme) && scheme.supportsAcr(ACR_REQUEST_HIGH) ? [ACR_EIDAS_HIGH] : [],
      pass_ui_locales: false,
      pass_login_hint: false,
      userinfo: false,
      amr: [],
      subject_claim: null,
      subject_mode: null,
      claim_mappers: [],
      redirect_uri: null,
      jwks_uri: null,
      created_at: null,
      updated_at: null,
    };
  }
}

/** Class instances from the validation pipe become plain JSON without unset fields. */
function plainMappers(mappers: ClaimMapperConfig[]): ClaimMapperConfig[] {
  return mappers.map((m) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined)) as unknown as ClaimMapperConfig);
}
