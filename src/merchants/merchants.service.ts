import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource, type EntityManager, Repository } from 'typeorm';
import type { AdminActor } from '../admin/admin-actor.js';
import { AuditService } from '../admin/audit.service.js';
import { constantTimeEqual } from '../common/crypto/constant-time.js';
import { SecretBox } from '../common/crypto/secret-box.js';
import { BadRequestError, NotFoundError } from '../common/errors/app-error.js';
import type { PageQueryDto } from '../common/http/pagination.dto.js';
import { APP_CONFIG, type AppConfig } from '../config/load-config.js';
import { resolvedUrlAddressProblem } from '../common/outbound/outbound-address.js';
import type { CreateMerchantDto } from './dto/create-merchant.dto.js';
import type { MerchantDto, MerchantPageDto, MerchantSecretDto, MerchantWithSecretDto } from './dto/merchant-response.dto.js';
import type { UpdateMerchantDto } from './dto/update-merchant.dto.js';
import { merchantSettingProblems } from './merchant-policy.js';
import { applyMerchantFields, toMerchantDto } from './merchant.mapper.js';
import { MerchantEntity } from './merchant.entity.js';
import { fetchLogo, type FetchedLogo } from './logos/logo-fetcher.js';
import { MerchantLogosService } from './logos/merchant-logos.service.js';
import { jwksUriKeyProblems, keyIdsOf } from './jwks-uri-key-check.js';
import { MerchantCache } from './merchant-cache.js';

const secretContext = (clientId: string) => `merchant-secret:${clientId}`;
const CALLBACK_FIELD = 'backchannel_client_notification_endpoint';

/** A merchant that may sign in, as the protocol paths read it: its secret unsealed, read-only. */
export type EnabledMerchant = Readonly<MerchantEntity & { clientSecret: string }>;

/** The advisory-lock class of SAML entity IDs (the two-key form: apart from the one-key locks elsewhere). */
const SAML_ENTITY_ID_LOCK = 734_013;

/** Merchant registration and lookup. Knows nothing of OAuth flows (architecture rule). */
@Injectable()
export class MerchantsService {
  private readonly merchants: Repository<MerchantEntity>;
  /** Per kept (frozen) row of the merchant cache: its protocol view, made once. */
  private readonly enabled = new WeakMap<Readonly<MerchantEntity>, EnabledMerchant>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
    private readonly audit: AuditService,
    private readonly logos: MerchantLogosService,
    private readonly cache: MerchantCache,
  ) {
    this.merchants = dataSource.getRepository(MerchantEntity);
  }

  async create(dto: CreateMerchantDto, actor: AdminActor, clientId = `m_${randomBytes(12).toString('base64url')}`): Promise<MerchantWithSecretDto> {
    const entity = this.merchants.create({ clientId, requestUris: [], postLogoutRedirectUris: [] });
    const fields = applyMerchantFields(entity, dto);
    this.assertAcceptable(entity);
    await this.assertCallbackAddress(dto);
    await this.assertKeysAtJwksUri(entity);
    const logo = await this.fetchLogoOf(dto);
    const secret = newSecret();
    entity.clientSecretSealed = this.secretBox.encrypt(secret, secretContext(entity.clientId));
    entity.secretRotatedAt = new Date();
    const saved = await this.dataSource.transaction(async (tx) => {
      await this.assertSamlEntityIdFree(entity, tx.getRepository(MerchantEntity));
      await this.setLogo(entity, logo, tx);
      const row = await tx.getRepository(MerchantEntity).save(entity);
      await this.cache.changed(tx, row.clientId);
      await this.audit.record(actor, 'merchant.create', 'merchant', row.clientId, this.auditedValues(row, fields), tx);
      return row;
    });
    return { ...toMerchantDto(saved), client_secret: secret };
  }

  /**
   * A merchant the service itself uses as a client of the engine (a front door's own sign-ins, such as a wallet's
   * authorization at the credential issuer), made once under a reserved id and audited as the system's. An operator
   * sees it in the admin API and may disable it, which turns that front door's sign-ins off.
   */
  async ensureReserved(clientId: string, dto: CreateMerchantDto): Promise<void> {
    if (await this.merchants.existsBy({ clientId })) return;
    await this.create(dto, { tokenId: 'system', label: 'the service', role: 'admin' }, clientId).catch(async (err: unknown) => {
      // Another instance made it at the same moment: fine, it exists.
      if (!(await this.merchants.existsBy({ clientId }))) throw err;
    });
  }

  async list(query: PageQueryDto): Promise<MerchantPageDto> {
    const [rows, total] = await this.merchants.findAndCount({
      order: { createdAt: 'ASC' },
      take: query.per_page,
      skip: (query.page - 1) * query.per_page,
    });
    return { page: query.page, per_page: query.per_page, total, items: rows.map(toMerchantDto) };
  }

  async get(clientId: string): Promise<MerchantDto> {
    return toMerchantDto(await this.load(clientId));
  }

  async update(clientId: string, dto: UpdateMerchantDto, actor: AdminActor): Promise<MerchantDto> {
    // Fetched (and resolved) before the row is locked: a slow logo, key or name server never holds the merchant's row.
    await this.assertCallbackAddress(dto);
    const logo = await this.fetchLogoOf(dto);
    const draft = await this.load(clientId);
    const keysBefore = keyIdsOf(draft);
    applyMerchantFields(draft, dto);
    this.assertAcceptable(draft);
    const checkedKeys = keyIdsOf(draft);
    if (checkedKeys !== keysBefore) await this.assertKeysAtJwksUri(draft);
    return this.change(clientId, actor, 'merchant.update', async (entity, tx) => {
      const unchecked = keyIdsOf(entity) !== keysBefore;
      const fields = applyMerchantFields(entity, dto);
      this.assertAcceptable(entity);
      if (unchecked && keyIdsOf(entity) !== checkedKeys) throw new BadRequestError("the merchant's keys changed while this request was checked; send it again");
      const before = entity.logoSha256;
      if (dto.logo_uri !== undefined) await this.setLogo(entity, logo, tx);
      // The same logo_uri sent again with a new image is a change too: the audit trail names the image.
      return { ...this.auditedValues(entity, fields), ...(entity.logoSha256 !== before ? { logo_sha256: entity.logoSha256 } : {}) };
    });
  }

  async rotateSecret(clientId: string, actor: AdminActor): Promise<MerchantSecretDto> {
    const secret = newSecret();
    await this.change(clientId, actor, 'merchant.rotate_secret', (entity) => {
      entity.clientSecretSealed = this.secretBox.encrypt(secret, secretContext(entity.clientId));
      entity.secretRotatedAt = new Date();
      return {};
    });
    return { client_id: clientId, client_secret: secret };
  }

  async setEnabled(clientId: string, enabled: boolean, actor: AdminActor): Promise<MerchantDto> {
    return this.change(clientId, actor, enabled ? 'merchant.enable' : 'merchant.disable', (entity) => {
      entity.enabled = enabled;
      return { enabled };
    });
  }

  /**
   * The merchant as the protocol layer needs it, with its secret unsealed; undefined when unknown or disabled. Frozen
   * and made once per kept row (merchant-cache.ts): every engine request asks for its client, and a copy and an
   * unsealing each time cost more CPU than the query the cache saves. The engine keeps the secret in memory in its
   * client objects all the same; at rest it stays sealed.
   */
  async findEnabled(clientId: string): Promise<EnabledMerchant | undefined> {
    const row = await this.cache.getShared(clientId, () => this.merchants.findOneBy({ clientId }));
    if (!row || !row.enabled) return undefined;
    let merchant = this.enabled.get(row);
    if (!merchant) {
      merchant = Object.freeze(
        Object.assign(Object.create(Object.getPrototypeOf(row) as object) as MerchantEntity, row, {
          clientSecret: this.secretBox.decryptText(row.clientSecretSealed, secretContext(row.clientId)),
        }),
      );
      this.enabled.set(row, merchant);
    }
    return merchant;
  }

  /**
   * The SAML merchant that names itself by its entity ID (Shibboleth's `providerId`, sent without `mid`); the
   * entity ID is unique among merchants (unique index), so at most one. Undefined when unknown or disabled.
   */
  async findEnabledBySamlEntityId(entityId: string): Promise<EnabledMerchant | undefined> {
    const row = await this.merchants
      .createQueryBuilder('m')
      .select('m.client_id', 'client_id')
      .where(`m.saml IS NOT NULL AND m.saml->>'entity_id' = :entityId`, { entityId })
      .getRawOne<{ client_id: string }>();
    return row ? this.findEnabled(row.client_id) : undefined;
  }

  /** Checks a presented secret in constant time; false for unknown or disabled merchants. */
  async verifySecret(clientId: string, presented: string): Promise<boolean> {
    const merchant = await this.findEnabled(clientId);
    const ok = constantTimeEqual(presented, merchant?.clientSecret ?? randomBytes(32).toString('base64url'));
    return ok && merchant !== undefined;
  }

  private async change(
    clientId: string,
    actor: AdminActor,
    action: string,
    mutate: (entity: MerchantEntity, tx: EntityManager) => Record<string, unknown> | Promise<Record<string, unknown>>,
  ): Promise<MerchantDto> {
    let previousLogo: string | null = null;
    const saved = await this.dataSource.transaction(async (tx) => {
      const repo = tx.getRepository(MerchantEntity);
      const entity = await repo.findOne({ where: { clientId }, lock: { mode: 'pessimistic_write' } });
      if (!entity) throw new NotFoundError(`merchant ${clientId}`);
      previousLogo = entity.logoSha256;
      const changes = await mutate(entity, tx);
      await this.assertSamlEntityIdFree(entity, repo);
      const row = await repo.save(entity);
      await this.cache.changed(tx, clientId);
      await this.audit.record(actor, action, 'merchant', clientId, changes, tx);
      return row;
    });
    // Again after the commit: a lookup between the drop inside the transaction and the commit read the old row and
    // may have kept it (other instances drop it on the NOTIFY, which is only delivered at commit).
    this.cache.forget(clientId);
    if (previousLogo !== saved.logoSha256) await this.logos.pruneUnused(previousLogo);
    return toMerchantDto(saved);
  }

  /** The logo named by the request, fetched now (once: pages never fetch it); undefined when none is named. */
  private async fetchLogoOf(dto: CreateMerchantDto | UpdateMerchantDto): Promise<FetchedLogo | undefined> {
    if (typeof dto.logo_uri !== 'string') return undefined;
    return fetchLogo(dto.logo_uri, { allowLoopback: !this.config.isProduction });
  }

  /**
   * A CIBA callback the outbox could never deliver to (it refuses such addresses at every connection, and
   * the merchant would only see no callback) is refused now, naming the field: the same address rule and
   * loopback policy as delivery. Checked when the field is sent, as logo_uri.
   */
  private async assertCallbackAddress(dto: CreateMerchantDto | UpdateMerchantDto): Promise<void> {
    const endpoint = dto.backchannel_client_notification_endpoint;
    if (typeof endpoint !== 'string') return;
    const problem = await resolvedUrlAddressProblem(endpoint, { allowLoopback: !this.config.isProduction });
    if (problem) throw new BadRequestError(`${CALLBACK_FIELD}: ${problem}`, { [CALLBACK_FIELD]: [problem] });
  }

  /** Stores the fetched logo and points the merchant at it; none (logo_uri: null) removes the merchant's logo. */
  private async setLogo(entity: MerchantEntity, logo: FetchedLogo | undefined, tx: EntityManager): Promise<void> {
    if (logo) await this.logos.store(tx, logo);
    entity.logoSha256 = logo?.sha256 ?? null;
  }

  private async load(clientId: string): Promise<MerchantEntity> {
    const row = await this.merchants.findOneBy({ clientId });
    if (!row) throw new NotFoundError(`merchant ${clientId}`);
    return row;
  }

  private async assertKeysAtJwksUri(entity: MerchantEntity): Promise<void> {
    const problems = await jwksUriKeyProblems(entity, { allowLoopback: !this.config.isProduction });
    const fields = Object.keys(problems);
    if (fields.length) throw new BadRequestError(fields.map((f) => `${f}: ${problems[f].join('; ')}`).join('; '), problems);
  }

  private assertAcceptable(entity: MerchantEntity): void {
    const problems = merchantSettingProblems(
      {
        redirectUris: entity.redirectUris ?? [],
        subjectType: entity.subjectType ?? 'public',
        scope: entity.scope ?? null,
        tokenEndpointAuthMethod: entity.tokenEndpointAuthMethod ?? 'client_secret_basic',
        idTokenEncryptedResponseAlg: entity.idTokenEncryptedResponseAlg ?? null,
        userinfoEncryptedResponseAlg: entity.userinfoEncryptedResponseAlg ?? null,
        jwksUri: entity.jwksUri ?? null,
        jwks: entity.jwks ?? null,
        requestObjectSigningAlg: entity.requestObjectSigningAlg ?? null,
        requestUris: entity.requestUris ?? [],
        postLogoutRedirectUris: entity.postLogoutRedirectUris ?? [],
        encryptionKeyId: entity.encryptionKeyId ?? null,
        requestObjectKeyId: entity.requestObjectKeyId ?? null,
        backchannelTokenDeliveryMode: entity.backchannelTokenDeliveryMode ?? 'poll',
        backchannelClientNotificationEndpoint: entity.backchannelClientNotificationEndpoint ?? null,
        backchannelAuthenticationRequestSigningAlg: entity.backchannelAuthenticationRequestSigningAlg ?? null,
        backchannelUserCodeParameter: entity.backchannelUserCodeParameter ?? false,
        dpopBoundAccessTokens: Boolean(entity.dpopBoundAccessTokens),
        saml: entity.saml ?? null,
      },
      this.config.env,
    );
    const fields = Object.keys(problems);
    if (fields.length) {
      const description = fields.map((f) => `${f}: ${problems[f].join('; ')}`).join('; ');
      throw new BadRequestError(description, problems);
    }
  }

  /**
   * A SAML entity ID names one merchant: it is the audience of its assertions, how it identifies itself on
   * the artifact back-channel and, as providerId, how an SP-initiated request names it. The unique index holds
   * it; the lock (per entity ID, until the transaction ends) makes a concurrent registration of the same ID
   * wait and then see the committed row, so it gets this 400 instead of the index's violation (a 500).
   */
  private async assertSamlEntityIdFree(entity: MerchantEntity, repo: Repository<MerchantEntity>): Promise<void> {
    const entityId = entity.saml?.entity_id;
    if (!entityId) return;
    await repo.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SAML_ENTITY_ID_LOCK, entityId]);
    const taken = await repo
      .createQueryBuilder('m')
      .where(`m.saml->>'entity_id' = :entityId`, { entityId })
      .andWhere('m.client_id <> :clientId', { clientId: entity.clientId })
      .getExists();
    if (taken) throw new BadRequestError('saml.entity_id: another merchant has this entity ID', { 'saml.entity_id': ['another merchant has this entity ID'] });
  }

  /** The audit trail keeps the new values of changed fields; merchant secrets never reach it. */
  private auditedValues(entity: MerchantEntity, fields: string[]): Record<string, unknown> {
    const dto = toMerchantDto(entity) as unknown as Record<string, unknown>;
    return Object.fromEntries(fields.map((f) => [f, dto[f]]));
  }
}

function newSecret(): string {
  return randomBytes(32).toString('base64url');
}
