import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager, Repository } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box.js';
import { logger } from '../../common/logging/logger.js';
import { Telemetry } from '../../common/telemetry/telemetry.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { type Hearing, NotificationListeners } from '../../database/notification-listener.js';
import { OutboundFetchError, outboundPost } from '../../common/outbound/outbound-fetch.js';
import { OidcProviderService } from '../../oidc/provider/oidc-provider.service.js';
import { inEngineTransaction } from '../../oidc/storage/engine-transaction.js';
import { OutboxEntity } from './outbox.entity.js';

interface Callback {
  url: string;
  bearer: string;
  body: Record<string, unknown>;
  /**
   * A push of tokens (CIBA Core 10.3.1): the grant they were made for. Never sent; when the push is given up
   * for good the grant is revoked with every token of it, as the merchant never received them.
   */
  grantId?: string;
}

/** The channel every instance listens on; the payload is empty (a row was queued: claim what is due). */
export const CIBA_OUTBOX_CHANNEL = 'ciba_outbox_queued';
export const CIBA_OUTBOX_LISTENER_NAME = 'broker-ciba-outbox';
/** A wake-up for a row due now that another instance's claim holds: no sooner than this (no busy loop). */
const MIN_WAKE_MS = 100;
/** After a round that failed (the database not answering), the next try. */
const RETRY_ROUND_MS = 5_000;
const LEASE_SECONDS = 30;
/** Deliveries in flight per instance; a round claims only what fits. */
const MAX_IN_FLIGHT = 50;
const TIMEOUT_MS = 5000;
export const MAX_ATTEMPTS = 10;
const MAX_BACKOFF_SECONDS = 300;
const context = (id: string) => `ciba-outbox:${id}`;

/**
 * Durable delivery of ping callbacks (CIBA Core 10.2): a row is written when a request completes, and every
 * instance's worker claims due rows (FOR UPDATE SKIP LOCKED, with a lease, so two instances never send the same
 * row at once and a crash mid-send only delays it). A round only claims; the sends run on their own, at most
 * MAX_IN_FLIGHT at once, so a merchant whose endpoint hangs holds one bounded connection per callback until
 * the timeout and never holds back another merchant's callbacks. Timeouts, network errors and 5xx are retried with
 * exponential backoff (1, 2, 4 ... 300 s, at most MAX_ATTEMPTS); a 4xx, or an address the filter refuses, is
 * final. Rows survive a restart: whatever is due is sent by the next worker to run. A push of tokens that is given
 * up revokes their grant in the same step (the tokens were never received; nobody else should hold them).
 *
 * Nothing polls. A row is queued with a NOTIFY in its own transaction (delivered at commit, so never before the row
 * is visible), and every instance listening claims on it. After each round one timer is set for the earliest
 * due time among the pending rows (a retry's backoff, another instance's lease), at most CIBA_OUTBOX_SWEEP_SECONDS
 * away: that sweep bounds what no notification announces (one sent while the listener was reconnecting is lost).
 */
@Injectable()
export class CibaOutboxService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly repo: Repository<OutboxEntity>;
  private timer?: NodeJS.Timeout;
  /** When the timer fires (epoch ms). */
  private wakeAt = Infinity;
  private claiming?: Promise<void>;
  /** A kick came while a round ran or every slot was busy: one more round once that is over. */
  private kickPending = false;
  private stopped = false;
  private hearing?: Hearing;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly oidc: OidcProviderService,
    private readonly listeners: NotificationListeners,
    @Optional() private readonly telemetry?: Telemetry,
  ) {
    this.repo = dataSource.getRepository(OutboxEntity);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.hearing && !this.stopped) return;
    this.stopped = false;
    // Each time it listens (again): what was queued while it did not is claimed now, not at the next sweep.
    this.hearing = this.listeners.hear({
      channel: CIBA_OUTBOX_CHANNEL,
      applicationName: CIBA_OUTBOX_LISTENER_NAME,
      onNotification: () => this.kick(),
      onListening: () => this.kick(),
    });
    await this.hearing?.start();
    // What is due from before this start (rows survive a restart), and the first timer.
    this.kick();
  }

  /** Called twice on a graceful shutdown (GracefulShutdown, then Nest): the second finds nothing to do. */
  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.wakeAt = Infinity;
    await this.hearing?.close();
    this.hearing = undefined;
    await this.claiming?.catch(() => undefined);
    // A send cut short here is sent again by the next instance once its lease ends.
    await Promise.allSettled([...this.inFlight]);
  }

  async enqueue(clientId: string, kind: 'ping' | 'push', callback: Callback, manager?: EntityManager): Promise<void> {
    const id = randomUUID();
    await (manager?.getRepository(OutboxEntity) ?? this.repo).insert({
      id,
      clientId,
      kind,
      state: 'pending',
      sealed: this.secretBox.encrypt(JSON.stringify(callback), context(id)),
      nextAttemptAt: new Date(),
    });
    // In the caller's transaction: heard when it commits, so never before the row is there to claim.
    await (manager ?? this.dataSource).query('SELECT pg_notify($1, $2)', [CIBA_OUTBOX_CHANNEL, '']);
  }

  /** Callbacks waiting for delivery and given up, over every instance (the table is shared): for the metrics. */
  async depth(): Promise<{ pending: number; failed: number }> {
    const rows: { state: string; n: string }[] = await this.dataSource.query(
      `SELECT state, count(*) AS n FROM ciba_outbox WHERE state IN ('pending', 'failed') GROUP BY state`,
    );
    const count = (state: string) => Number(rows.find((r) => r.state === state)?.n ?? 0);
    return { pending: count('pending'), failed: count('failed') };
  }

  /**
   * Claims what is due and starts sending it. While a round runs, or every slot is busy, the kick is kept for
   * one more round after it: a row whose NOTIFY came during a claim may have committed after its snapshot.
   */
  kick(): void {
    if (this.stopped) return;
    const room = MAX_IN_FLIGHT - this.inFlight.size;
    if (this.claiming || room <= 0) {
      this.kickPending = true;
      return;
    }
    this.kickPending = false;
    this.claiming = this.round(room)
      .catch((err) => {
        logger.error({ err }, 'ciba outbox round failed');
        this.wakeWithin(RETRY_ROUND_MS);
      })
      .finally(() => {
        this.claiming = undefined;
        if (this.kickPending) this.kick();
      });
  }

  /** One claim; then the timer for the next due row, unless the claim was full (more may be due: a freed slot kicks). */
  private async round(room: number): Promise<void> {
    const rows = await this.claimDue(room);
    rows.forEach((row) => this.startDelivery(row));
    if (rows.length >= room) {
      this.kickPending = true;
      this.wakeWithin(this.sweepMs);
    } else {
      this.wakeWithin(await this.msUntilNextDue());
    }
  }

  private get sweepMs(): number {
    return this.config.ciba.outboxSweepSeconds * 1000;
  }

  /** Moves the timer earlier to `ms` from now (never later than the sweep, never sooner than MIN_WAKE_MS). */
  private wakeWithin(ms: number): void {
    const at = Date.now() + Math.min(Math.max(ms, MIN_WAKE_MS), this.sweepMs);
    // The timer that fired is spent: any time is earlier than none.
    if (this.stopped || at >= this.wakeAt) return;
    clearTimeout(this.timer);
    this.wakeAt = at;
    this.timer = setTimeout(() => {
      this.wakeAt = Infinity;
      this.kick();
    }, at - Date.now()).unref();
  }

  /** The wait for the earliest pending row (a retry, or a lease held elsewhere), by the database's clock. */
  private async msUntilNextDue(): Promise<number> {
    const [{ ms }]: { ms: number | null }[] = await this.dataSource.query(
      `SELECT (extract(epoch FROM min(next_attempt_at) - now()) * 1000)::float8 AS ms FROM ciba_outbox WHERE state = 'pending'`,
    );
    return ms ?? Infinity;
  }

  /** Deliveries in flight on this instance (for tests and metrics). */
  get deliveriesInFlight(): number {
    return this.inFlight.size;
  }

  private startDelivery(row: { id: string; sealed: string; attempts: number }): void {
    const sending: Promise<void> = this.deliver(row)
      .catch((err) => logger.error({ err, outbox_id: row.id }, 'ciba callback delivery failed'))
      .finally(() => {
        this.inFlight.delete(sending);
        if (this.kickPending) this.kick();
      });
    this.inFlight.add(sending);
  }

  private async claimDue(limit: number): Promise<{ id: string; sealed: string; attempts: number }[]> {
    const result: unknown[] = await this.dataSource.query(
      `UPDATE ciba_outbox SET next_attempt_at = now() + make_interval(secs => $1), attempts = attempts + 1
       WHERE id IN (SELECT id FROM ciba_outbox WHERE state = 'pending' AND next_attempt_at <= now() ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id, sealed, attempts`,
      [LEASE_SECONDS, limit],
    );
    // UPDATE ... RETURNING answers [rows, count] through TypeORM's postgres driver.
    return (Array.isArray(result[0]) ? result[0] : result) as { id: string; sealed: string; attempts: number }[];
  }

  private async deliver(row: { id: string; sealed: string; attempts: number }): Promise<void> {
    const callback = JSON.parse(this.secretBox.decryptText(row.sealed, context(row.id))) as Callback;
    let retry: boolean;
    let error: string;
    try {
      const res = await outboundPost(
        new URL(callback.url),
        { allowLoopback: !this.config.isProduction },
        {
          maxBytes: 64 * 1024,
          timeoutMs: TIMEOUT_MS,
          headers: { authorization: `Bearer ${callback.bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify(callback.body),
        },
      );
      if (res.status >= 200 && res.status < 300) {
        await this.repo.update({ id: row.id }, { state: 'delivered', deliveredAt: new Date(), lastError: null });
        this.telemetry?.emit('callbackDelivery', 'delivered');
        return;
      }
      retry = res.status >= 500;
      error = `HTTP ${res.status}`;
    } catch (e) {
      // An address the filter refuses stays refused; timeouts and network errors are worth another try.
      const message = (e as Error).message;
      retry = !(e instanceof OutboundFetchError && /not allowed|is not fetched/i.test(message));
      error = message.slice(0, 300);
    }
    if (retry && row.attempts < MAX_ATTEMPTS) {
      const backoff = Math.min(2 ** (row.attempts - 1), MAX_BACKOFF_SECONDS);
      await this.dataSource.query(`UPDATE ciba_outbox SET next_attempt_at = now() + make_interval(secs => $2), last_error = $3 WHERE id = $1`, [
        row.id,
        backoff,
        error,
      ]);
      this.telemetry?.emit('callbackDelivery', 'retry');
      this.wakeWithin(backoff * 1000);
    } else {
      await inEngineTransaction(this.dataSource, async (manager) => {
        await manager.getRepository(OutboxEntity).update({ id: row.id }, { state: 'failed', lastError: error });
        if (callback.grantId) await this.revokeGrant(callback.grantId);
      });
      logger.warn({ outbox_id: row.id, error, revoked: Boolean(callback.grantId) }, 'ciba callback given up');
      this.telemetry?.emit('callbackDelivery', 'given_up');
    }
  }

  /** As the engine revokes a grant (helpers/revoke.js): its access and refresh tokens, then the grant itself. */
  private async revokeGrant(grantId: string): Promise<void> {
    const engine = this.oidc.engine;
    await engine.AccessToken.revokeByGrantId(grantId);
    await engine.RefreshToken.revokeByGrantId(grantId);
    await (await engine.Grant.find(grantId))?.destroy();
  }
}
