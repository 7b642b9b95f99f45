import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import Provider from 'oidc-provider';
import { DataSource } from 'typeorm';
import { logger } from '../../common/logging/logger.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { MerchantsService } from '../../merchants/merchants.service.js';
import { SigningKeysService } from '../keys/signing-keys.service.js';
import { BrokeredLoginsService } from '../logins/brokered-logins.service.js';
import { purgeExpiredPayloads } from '../storage/typeorm-adapter.js';
import { applySpecResponseRules } from './spec-response-rules.js';
import { MerchantJwksSource } from './merchant-jwks.js';
import { buildProviderConfiguration } from './provider-configuration.js';
import { requestUriMiddleware } from './request-uri.middleware.js';
import { tokenParamsMiddleware } from './token-params.middleware.js';
import { publicOriginMiddleware } from './public-origin.js';
import { DISCOVERY_PATH, INTERACTION_PATH, ISSUER_PATH, isProviderRequest } from './routes.js';

const KEY_REFRESH_MS = 60_000;
const PURGE_MS = 10 * 60_000;

/**
 * Owns the running oidc-provider instance. Signing keys live in the database: when their set changes
 * (a rotation here or on another instance) a new engine is built from the same configuration and
 * swapped in; all engine state is in the database, so nothing is lost.
 */
@Injectable()
export class OidcProviderService implements OnModuleInit, OnApplicationShutdown {
  private provider!: Provider;
  private fingerprint = '';
  private timers: NodeJS.Timeout[] = [];
  private readonly merchantKeys: MerchantJwksSource;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly merchants: MerchantsService,
    private readonly logins: BrokeredLoginsService,
    private readonly signingKeys: SigningKeysService,
  ) {
    this.merchantKeys = new MerchantJwksSource(this.outboundPolicy);
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

  async onModuleInit(): Promise<void> {
    await this.signingKeys.ensureKeys();
    await this.reloadIfKeysChanged();
    this.timers.push(setInterval(() => void this.reloadIfKeysChanged().catch((err) => logger.error({ err }, 'signing key reload failed')), KEY_REFRESH_MS));
    this.timers.push(setInterval(() => void this.purge().catch((err) => logger.error({ err }, 'oidc purge failed')), PURGE_MS));
    for (const t of this.timers) t.unref();
  }

  onApplicationShutdown(): void {
    for (const t of this.timers) clearInterval(t);
  }

  async reloadIfKeysChanged(): Promise<void> {
    const keySet = await this.signingKeys.load();
    if (keySet.fingerprint === this.fingerprint) return;
    const provider = new Provider(
      this.issuer,
      buildProviderConfiguration({
        config: this.config,
        dataSource: this.dataSource,
        merchants: this.merchants,
        logins: this.logins,
        signingKeys: keySet.keys,
        merchantKeys: this.merchantKeys,
      }),
    );
    provider.proxy = this.config.trustProxy;
    applySpecResponseRules(provider);
    provider.on('server_error', (_ctx: unknown, err: Error) => logger.error({ err }, 'oidc server error'));
    this.provider = provider;
    this.fingerprint = keySet.fingerprint;
  }

  async purge(): Promise<void> {
    await purgeExpiredPayloads(this.dataSource);
    await this.logins.purgeExpired();
    await this.signingKeys.purgeRetired();
    await this.reloadIfKeysChanged();
  }

  /** Express middleware: hands the spec's OIDC paths to the engine, everything else to Nest. */
  middleware() {
    const resolveRequestUri = requestUriMiddleware(this.merchants, this.outboundPolicy);
    // Host from BASE_URL unless TRUST_PROXY; an https service reached over plain http answers why it refuses.
    const publicOrigin = publicOriginMiddleware(this.config, (req) => isProviderRequest(req.method, req.path) || req.path.startsWith(INTERACTION_PATH));
    const engine = (req: Request, res: Response, next: NextFunction): void => publicOrigin(req, res, () => toEngine(req, res, next));
    const toEngine = (req: Request, res: Response, next: NextFunction): void => {
      const path = req.path;
      if (!isProviderRequest(req.method, path)) return next();
      // The engine serves discovery at its mount's well-known path; the spec puts it under the issuer.
      // (originalUrl too: the engine derives its mount path from the difference between the two.)
      if (path === DISCOVERY_PATH) req.url = req.originalUrl = req.url.replace(DISCOVERY_PATH, '/.well-known/openid-configuration');
      void this.provider.callback()(req, res);
    };
    const tokenParams = tokenParamsMiddleware(this.merchants);
    return (req: Request, res: Response, next: NextFunction): void => {
      void resolveRequestUri(req, res, (err?: unknown) =>
        err ? next(err) : void tokenParams(req, res, () => engine(req, res, next)),
      );
    };
  }
}
