import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { logger } from '../../common/logging/logger.js';
import { DatabasePing } from '../../database/database-ping.js';
import { OidcProviderService } from '../../oidc/provider/oidc-provider.service.js';
import { REDIS, type RedisHandle } from '../../redis/redis.module.js';
import { FACE_ENGINE } from '../../schemes/document-verifier/verification/face-engine.provider.js';

export type CheckState = 'ok' | 'pending' | 'failed';

export interface ReadinessReport {
  status: 'ready' | 'not_ready' | 'draining';
  checks: { migrations: CheckState; database: CheckState; signing_keys: CheckState; face_models: CheckState; redis: CheckState | 'not_used'; draining: boolean };
}

/**
 * Whether this instance should get traffic: migrations ran, the database answers within its bound (an instance whose
 * pool is stuck answers nothing that needs it: it must leave the rotation), the signing keys are loaded, the face models are
 * warm, Redis answers when REDIS_URL is set (it holds every login in progress: without it the instance can only
 * answer temporarily_unavailable), and it is not draining (SIGTERM). The report names each check (never a secret or
 * an error message).
 */
@Injectable()
export class ReadinessService implements OnApplicationBootstrap {
  private migrations: CheckState = 'pending';
  private faceModels: CheckState = 'pending';
  private warming?: Promise<void>;
  private drainingSince?: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly oidc: OidcProviderService,
    private readonly moduleRef: ModuleRef,
    private readonly databasePing: DatabasePing,
    @Inject(REDIS) private readonly redis: RedisHandle,
  ) {}

  /** Migrations run while the DataSource initialises; this confirms none is left (another instance may be newer). */
  async onApplicationBootstrap(): Promise<void> {
    try {
      this.migrations = (await this.dataSource.showMigrations()) ? 'pending' : 'ok';
    } catch (err) {
      logger.error({ err }, 'migration check failed');
      this.migrations = 'failed';
    }
  }

  /**
   * Loads the face models (the workers' first load takes seconds of CPU), so the first verification does not
   * wait for them; the instance is ready only afterwards. main.ts calls this once the port is open.
   */
  warmFaceModels(): Promise<void> {
    this.warming ??= (async () => {
      const engine = this.moduleRef.get<{ warmUp?: () => Promise<void> }>(FACE_ENGINE, { strict: false });
      try {
        await engine.warmUp?.();
        this.faceModels = 'ok';
      } catch (err) {
        this.faceModels = 'failed';
        logger.error({ err }, 'face models failed to load');
      }
    })();
    return this.warming;
  }

  startDraining(): void {
    this.drainingSince ??= Date.now();
  }

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  async report(): Promise<ReadinessReport> {
    const checks = {
      migrations: this.migrations,
      database: ((await this.databasePing.answers()) ? 'ok' : 'failed') as CheckState,
      // The engine exists only once a key set was loaded into it (OidcProviderService.reload).
      signing_keys: (this.oidc.engine ? 'ok' : 'pending') as CheckState,
      face_models: this.faceModels,
      // ioredis' own state: 'ready' once connected; it reconnects by itself, and the check follows.
      redis: this.redis === null ? ('not_used' as const) : this.redis.status === 'ready' ? ('ok' as const) : ('failed' as const),
      draining: this.draining,
    };
    const ready = checks.migrations === 'ok' && checks.database === 'ok' && checks.signing_keys === 'ok' && checks.face_models === 'ok' && checks.redis !== 'failed';
    return { status: this.draining ? 'draining' : ready ? 'ready' : 'not_ready', checks };
  }
}
