import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { logger } from '../../common/logging/logger.js';
import { DatabasePing } from '../../database/database-ping.js';
import { OidcProviderService } from '../../oidc/provider/oidc-provider.service.js';
import { REDIS, type RedisHandle } from '../../redis/redis.module.js';
import { ObservedSchemes } from '../observed-schemes.js';

export type CheckState = 'ok' | 'pending' | 'failed';

export interface ReadinessReport {
  status: 'ready' | 'not_ready' | 'draining';
  /** The core's checks, and each running scheme's by its name (the document verifier's `face_models`). */
  checks: { migrations: CheckState; database: CheckState; signing_keys: CheckState; redis: CheckState | 'not_used'; draining: boolean } & Record<
    string,
    CheckState | 'not_used' | boolean
  >;
}

/**
 * Whether this instance should get traffic: migrations ran, the database answers within its bound (an instance whose
 * pool is stuck answers nothing that needs it: it must leave the rotation), the signing keys are loaded, each running
 * scheme's own check passed (the document verifier's face models are warm: SchemeObservations.readiness), Redis answers when REDIS_URL is set (it holds every login in progress: without it the instance can only
 * answer temporarily_unavailable), and it is not draining (SIGTERM). The report names each check (never a secret or
 * an error message).
 */
@Injectable()
export class ReadinessService implements OnApplicationBootstrap {
  private migrations: CheckState = 'pending';
  /** The schemes' checks by name: pending until warmUp() ran them. */
  private readonly schemeChecks = new Map<string, CheckState>();
  private warming?: Promise<void>;
  private drainingSince?: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly oidc: OidcProviderService,
    private readonly schemes: ObservedSchemes,
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

  /** The schemes' readiness checks, named: each pending until warmUp() ran it. */
  private checksOfSchemes(): { check: string; warmUp(): Promise<void> }[] {
    return this.schemes.all().flatMap((scheme) => (scheme.readiness ? [scheme.readiness] : []));
  }

  /**
   * Runs the schemes' readiness checks (the document verifier loads its face models: the workers' first load takes
   * seconds of CPU), so the first verification does not wait for them; the instance is ready only afterwards.
   * main.ts calls this once the port is open.
   */
  warmUp(): Promise<void> {
    this.warming ??= Promise.all(
      this.checksOfSchemes().map(async ({ check, warmUp }) => {
        try {
          await warmUp();
          this.schemeChecks.set(check, 'ok');
        } catch (err) {
          this.schemeChecks.set(check, 'failed');
          logger.error({ err, check }, 'a readiness check failed');
        }
      }),
    ).then(() => undefined);
    return this.warming;
  }

  startDraining(): void {
    this.drainingSince ??= Date.now();
  }

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  async report(): Promise<ReadinessReport> {
    const ofSchemes = Object.fromEntries(this.checksOfSchemes().map(({ check }) => [check, this.schemeChecks.get(check) ?? 'pending'])) as Record<
      string,
      CheckState
    >;
    const checks = {
      migrations: this.migrations,
      database: ((await this.databasePing.answers()) ? 'ok' : 'failed') as CheckState,
      // The engine exists only once a key set was loaded into it (OidcProviderService.reload).
      signing_keys: (this.oidc.engine ? 'ok' : 'pending') as CheckState,
      ...ofSchemes,
      // ioredis' own state: 'ready' once connected; it reconnects by itself, and the check follows.
      redis: this.redis === null ? ('not_used' as const) : this.redis.status === 'ready' ? ('ok' as const) : ('failed' as const),
      draining: this.draining,
    };
    const schemesReady = Object.values(ofSchemes).every((state) => state === 'ok');
    const ready = checks.migrations === 'ok' && checks.database === 'ok' && checks.signing_keys === 'ok' && schemesReady && checks.redis !== 'failed';
    return { status: this.draining ? 'draining' : ready ? 'ready' : 'not_ready', checks };
  }
}
