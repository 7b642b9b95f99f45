import { memoizeClientLookup } from './client-lookup.js';
import { MerchantClientAdapter } from './merchant-client.js';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { importJWK, type JWK, SignJWT } from 'jose';
import Provider from 'oidc-provider';
import { DataSource } from 'typeorm';
import { logger } from '../../common/logging/logger.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { ExclusiveJobs } from '../../database/exclusive-jobs.js';
import { MerchantsService } from '../../merchants/merchants.service.js';
import { SigningKeysService } from '../keys/signing-keys.service.js';
import { SigningKeyChanges } from '../keys/signing-key-changes.js';
import { BrokeredLoginsService } from '../../broker/logins/brokered-logins.service.js';
import { LoginRequests } from '../../broker/login/login-requests.js';
import { EidRegistry } from '../../broker/schemes/eid-registry.js';
import { applyAssuranceMetadata, assuranceMetadata } from '../identity-assurance/assurance-metadata.js';
import { CibaHooksSlot } from './ciba-hooks.js';
import { applyCibaAnswers } from './ciba-answers.js';
import { purgeExpiredPayloads } from '../storage/typeorm-adapter.js';
import { RedisModelStore } from '../storage/redis-model-store.js';
import { REDIS, type RedisHandle } from '../../redis/redis.module.js';
import { applySpecResponseRules } from './spec-response-rules.js';
import { applyDpopRules } from './dpop.js';
import { applyCertificateRevocation, ClientCertificateRevocation, CRL_FILE_CHECK_MS } from './client-certificate-revocation.js';
import { MerchantJwksSource } from '../../merchants/merchant-jwks.js';
import { buildProviderConfiguration } from './provider-configuration.js';
import { requestUriMiddleware } from './request-uri.middleware.js';
import { tokenParamsMiddleware } from './token-params.middleware.js';
import { publicOriginMiddleware } from './public-origin.js';
import { KeptAnswers } from './kept-answers.js';
import { DISCOVERY_PATH, INTERACTION_PATH, ISSUER_PATH, isProviderRequest, OIDC_ROUTES } from './routes.js';

export const OIDC_PURGE_JOB = 'oidc-purge';
const PURGE_MS = 10 * 60_000;

/**
 * Owns the running oidc-provider instance. Signing keys live in the database and are served from memory (the
 * JWKS and the signing key read nothing per request). When their set changes a new engine is built from the
 * same configuration and swapped in; all engine state is in the database, so nothing is lost. The set is read
 * again when it changes by itself (the schedule's next change), when another instance announces a rotation
 * (SigningKeyChanges), and, in case an announcement was missed, by a cheap check every KEY_RELOAD_SECONDS.
 */
@Injectable()
export class OidcProviderService implements OnModuleInit, OnApplicationShutdown {
  private provider!: Provider;
  /** The engine's request handler, made once per engine (Koa composes its middleware on each callback()). */
  private handler!: ReturnType<Provider['callback']>;
  /** The engine's discovery and JWKS answers, kept per engine (kept-answers.ts). */
  private keptAnswers = new KeptAnswers();
  private fingerprint = '';
  private signingJwks: JWK[] = [];
  private timers: NodeJS.Timeout[] = [];
  /** Fires when the key schedule changes by itself (a published key starts signing, or leaves the JWKS). */
  private scheduleTimer?: NodeJS.Timeout;
  private reloading?: Promise<void>;
  private readonly merchantKeys: MerchantJwksSource;
  private readonly redisModels: RedisModelStore | null;
  /** CLIENT_CERT_CRL_FILE's CRLs, loaded before the first engine; undefined without that file. */
  private revocation?: ClientCertificateRevocation;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly merchants: MerchantsService,
    private readonly logins: BrokeredLoginsService,
    private readonly signingKeys: SigningKeysService,
    private readonly keyChanges: SigningKeyChanges,
    private readonly ciba: CibaHooksSlot,
    @Inject(REDIS) redis: RedisHandle,
    private readonly jobs: ExclusiveJobs,
    private readonly loginRequests: LoginRequests,
    private readonly schemes: EidRegistry,
  ) {
    this.merchantKeys = new MerchantJwksSource(this.outboundPolicy);
    this.redisModels = redis ? new RedisModelStore(redis, config.redisKeyPrefix) : null;
  }

  /** Loopback only in customer-test (local merchants, tests); other private ranges are never fetched. */
  private get outboundPolicy() {
    return { allowLoopback: !this.config.isProduction };
  }

  get issuer(): string {
    return `${this.config.baseUrl}${ISSUER_PATH}`;
  }

  get engine(): Provider {
    return this.provider;
  }

  /**
   * A JWT signed as the engine signs ID tokens: with the current signing key of `alg` (the first of its
   * algorithm in the loaded set), `kid` in the header, this issuer. Verifiable with the published JWKS.
   */
  async signJwt(payload: Record<string, unknown>, alg: string, audience: string): Promise<string> {
    const jwk = this.signingKeyOf(alg) ?? this.signingKeyOf('RS256');
    if (!jwk?.alg) throw new Error(`no signing key for ${alg}`);
    return new SignJWT(payload)
      .setProtectedHeader({ alg: jwk.alg, kid: jwk.kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setAudience(audience)
      .setIssuedAt()
      .sign(await importJWK(jwk, jwk.alg));
  }

  /** The private JWK that signs `alg` now (the first of its algorithm in the set in memory), as the engine picks it. */
  signingKeyOf(alg: string): JWK | undefined {
    return this.signingJwks.find((k) => k.alg === alg);
  }

  async onModuleInit(): Promise<void> {
    // Before the first engine: a CRL file that fails its checks stops the start (ConfigError).
    this.revocation = await ClientCertificateRevocation.of(this.config.clientCertificate);
    // Listening first: a rotation committed between the first read and the LISTEN would go unheard.
    await this.keyChanges.listen(() => void this.checkKeys());
    await this.signingKeys.ensureKeys();
    await this.reloadIfKeysChanged();
    // A rotation elsewhere is heard at once; this check bounds a missed one (the listener reconnecting) to one
    // interval. Rotated keys sign only after two (SigningKeysAdminService), so no instance signs with a key
    // another one does not publish yet.
    this.timers.push(setInterval(() => void this.checkKeys(), this.config.oidc.keyReloadSeconds * 1000));
    this.timers.push(setInterval(() => void this.purge().catch((err) => logger.error({ err }, 'oidc purge failed')), PURGE_MS));
    const revocation = this.revocation;
    if (revocation) this.timers.push(setInterval(() => void revocation.reloadIfChanged(), CRL_FILE_CHECK_MS));
    for (const t of this.timers) t.unref();
  }

  onApplicationShutdown(): void {
    for (const t of this.timers) clearInterval(t);
    clearTimeout(this.scheduleTimer);
  }

  private reloadLogged(): Promise<void> {
    return this.reloadIfKeysChanged().catch((err) => logger.error({ err }, 'signing key reload failed'));
  }

  /** One reload at a time; each call is answered by a reload that started after it (it sees what preceded it). */
  reloadIfKeysChanged(): Promise<void> {
    const next = (this.reloading ?? Promise.resolve()).catch(() => undefined).then(() => this.reload());
    this.reloading = next;
    return next;
  }

  /** A cheap look at the key rows (no private key read or unsealed), and a reload when they changed. */
  private checkKeys(): Promise<void> {
    return this.signingKeys
      .currentFingerprint()
      .then((fingerprint) => (fingerprint === this.fingerprint ? undefined : this.reloadIfKeysChanged()))
      .catch((err) => logger.error({ err }, 'signing key check failed'));
  }

  private scheduleNextChange(at: number | undefined): void {
    clearTimeout(this.scheduleTimer);
    if (at === undefined) return;
    this.scheduleTimer = setTimeout(() => void this.reloadLogged(), Math.min(Math.max(at - Date.now() + 20, 0), 2 ** 31 - 1));
    this.scheduleTimer.unref();
  }

  private async reload(): Promise<void> {
    const keySet = await this.signingKeys.load();
    this.scheduleNextChange(keySet.nextChangeAt);
    if (keySet.fingerprint === this.fingerprint) return;
    const clients = new MerchantClientAdapter(this.merchants, this.merchantKeys);
    const configuration = buildProviderConfiguration({
      config: this.config,
      dataSource: this.dataSource,
      merchants: this.merchants,
      logins: this.logins,
      signingKeys: keySet.keys,
      clients,
      ciba: this.ciba,
      redis: this.redisModels,
      isOwnedLogin: (sealed, clientId) => this.loginRequests.ownerOf(sealed, clientId) !== undefined,
      revocation: this.revocation,
    });
    const provider = new Provider(this.issuer, configuration);
    memoizeClientLookup(provider, clients);
    provider.proxy = this.config.trustProxy;
    applySpecResponseRules(provider, {
      cibaIntervalSeconds: this.config.ciba.pollIntervalSeconds,
      signJwt: (payload, alg, audience) => this.signJwt(payload, alg, audience),
    });
    applyCibaAnswers(provider, this.ciba);
    applyDpopRules(provider);
    applyCertificateRevocation(provider, this.revocation);
    applyAssuranceMetadata(provider, () => assuranceMetadata(this.config, this.schemes.verificationOffers()));
    provider.on('server_error', (_ctx: unknown, err: Error) => logger.error({ err }, 'oidc server error'));
    this.provider = provider;
    this.handler = provider.callback();
    this.keptAnswers = new KeptAnswers();
    this.signingJwks = keySet.keys;
    this.fingerprint = keySet.fingerprint;
  }

  /** The deletions on one instance at a time (whether they ran here); the key reload on every instance. */
  async purge(): Promise<boolean> {
    const { ran } = await this.jobs.run(OIDC_PURGE_JOB, async () => {
      await purgeExpiredPayloads(this.dataSource);
      await this.logins.purgeExpired();
      await this.signingKeys.purgeRetired();
    });
    await this.reloadIfKeysChanged();
    return ran;
  }

  /** Express middleware: hands the spec's OIDC paths to the engine, everything else to Nest. */
  middleware() {
    const resolveRequestUri = requestUriMiddleware(this.merchants, this.outboundPolicy);
    // Host from BASE_URL unless TRUST_PROXY; an https service reached over plain http answers why it refuses.
    const publicOrigin = publicOriginMiddleware(this.config, (req) => isProviderRequest(req.method, req.path) || req.path.startsWith(INTERACTION_PATH));
    const engine = (req: Request, res: Response, next: NextFunction): void => {
      const path = req.path;
      if (!isProviderRequest(req.method, path)) return next();
      // The engine serves discovery at its mount's well-known path; the spec puts it under the issuer.
      // (originalUrl too: the engine derives its mount path from the difference between the two.)
      if (path === DISCOVERY_PATH || path === OIDC_ROUTES.jwks) {
        if (this.keptAnswers.serve(req, res)) return;
        this.keptAnswers.keep(req, res);
      }
      if (path === DISCOVERY_PATH) req.url = req.originalUrl = req.url.replace(DISCOVERY_PATH, '/.well-known/openid-configuration');
      void this.handler(req, res);
    };
    const tokenParams = tokenParamsMiddleware(this.merchants);
    // publicOrigin first: nothing (a request_uri fetch included) runs for a request it refuses. A refusal is
    // passed on (next(err)) to the error renderer.
    return (req: Request, res: Response, next: NextFunction): void =>
      publicOrigin(req, res, (refused?: unknown) =>
        refused
          ? next(refused)
          : void resolveRequestUri(req, res, (err?: unknown) =>
              err ? next(err) : void tokenParams(req, res, (failed?: unknown) => (failed ? next(failed) : engine(req, res, next))),
            ),
      );
  }
}
