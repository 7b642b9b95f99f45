import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { Telemetry } from '../../common/telemetry/telemetry.js';
import { CibaOutboxService } from '../../ciba/outbox/ciba-outbox.service.js';
import { NotificationListeners } from '../../database/notification-listener.js';
import { REDIS, type RedisHandle } from '../../redis/redis.module.js';
import { ReadinessService } from '../health/readiness.service.js';
import { ObservedSchemes } from '../observed-schemes.js';
import { EngineEventCounter } from './engine-events.js';
import { registerExpiryGauges } from './expiry-metrics.js';

/**
 * The event-loop delay histogram (nodejs_eventloop_lag_*) samples once per this many ms. prom-client's default,
 * 10 ms, woke an idle process 100 times a second (at 100 ms an idle instance still spent about 0.27% of a core on
 * it alone). At 500 ms a stall of half a second or more is always seen (the sample due during it waits for it), a
 * shorter one in proportion to its length: enough for the stalls the lag series are watched for.
 */
const EVENT_LOOP_SAMPLE_MS = 500;

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * Every series of the service, in one registry per application (tests run several apps in a process; the
 * global registry would mix them). Counters are this instance's; the outbox gauges read the shared table.
 */
@Injectable()
export class OpsMetrics implements OnModuleInit {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status, with their duration (the _count is the request count)',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'broker_rate_limited_total',
    help: 'Requests refused with 429 by rate limit bucket',
    labelNames: ['bucket'] as const,
    registers: [this.registry],
  });
  readonly rateLimiterErrors = new Counter({
    name: 'broker_rate_limiter_errors_total',
    help: 'Rate limit checks that failed open because the shared store (Redis) did not answer',
    registers: [this.registry],
  });
  readonly engineEvents: EngineEventCounter;

  constructor(
    private readonly telemetry: Telemetry,
    private readonly dataSource: DataSource,
    private readonly readiness: ReadinessService,
    private readonly moduleRef: ModuleRef,
    private readonly listeners: NotificationListeners,
    private readonly schemes: ObservedSchemes,
    @Inject(REDIS) private readonly redis: RedisHandle,
  ) {
    this.engineEvents = new EngineEventCounter(
      new Counter({
        name: 'broker_oidc_events_total',
        help: 'Events of the OpenID Connect engine (errors by OAuth error code)',
        labelNames: ['event', 'error'] as const,
        registers: [this.registry],
      }),
    );
  }

  onModuleInit(): void {
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
    this.logins();
    this.verifications();
    this.faceWork();
    this.schemeWorkers();
    this.callbacks();
    this.stateGauges();
    registerExpiryGauges(this.registry, this.moduleRef, this.schemes);
  }

  private logins(): void {
    const started = new Counter({
      name: 'broker_logins_started_total',
      help: 'Logins started, by eID scheme',
      labelNames: ['scheme'] as const,
      registers: [this.registry],
    });
    const finished = new Counter({
      name: 'broker_logins_completed_total',
      help: 'Logins a scheme finished, by eID scheme and outcome (success: identified; failure: handed back as an error)',
      labelNames: ['scheme', 'outcome'] as const,
      registers: [this.registry],
    });
    this.telemetry.on('loginStarted', (scheme) => started.inc({ scheme }));
    this.telemetry.on('loginFinished', (scheme, outcome) => finished.inc({ scheme, outcome }));
  }

  private verifications(): void {
    const outcomes = new Counter({
      name: 'broker_verifications_total',
      help: 'Document verifications completed, by authentication_result',
      labelNames: ['result'] as const,
      registers: [this.registry],
    });
    const explanations = new Counter({
      name: 'broker_verification_explanations_total',
      help: 'result_explanation values of completed verifications (one verification may count several)',
      labelNames: ['explanation'] as const,
      registers: [this.registry],
    });
    this.telemetry.on('verificationCompleted', (result, reasons) => {
      outcomes.inc({ result });
      for (const explanation of reasons) explanations.inc({ explanation });
    });
  }

  private faceWork(): void {
    const running = new Gauge({ name: 'broker_face_work_running', help: 'Face verifications running on this instance', registers: [this.registry] });
    const waiting = new Gauge({ name: 'broker_face_queue_depth', help: 'Face verifications waiting for a slot on this instance', registers: [this.registry] });
    const seconds = new Histogram({
      name: 'broker_face_work_seconds',
      help: 'Face verification time on this instance: waiting for a slot (phase=wait) and holding it (phase=run)',
      labelNames: ['phase'] as const,
      buckets: [0.01, 0.1, 0.5, 1, 2, 4, 8, 15, 30, 60],
      registers: [this.registry],
    });
    const refused = new Counter({
      name: 'broker_face_work_refused_total',
      help: 'Face verifications refused with 503 because the queue was full',
      registers: [this.registry],
    });
    this.telemetry.on('faceQueue', (r, w) => {
      running.set(r);
      waiting.set(w);
    });
    this.telemetry.on('faceWork', (wait, run) => {
      seconds.observe({ phase: 'wait' }, wait);
      seconds.observe({ phase: 'run' }, run);
    });
    this.telemetry.on('faceRefused', () => refused.inc());
  }

  /**
   * Each running scheme's worker threads: their memory and their replacements (the document verifier's face workers:
   * broker_face_worker_memory_bytes, broker_face_worker_recycles_total).
   */
  private schemeWorkers(): void {
    for (const { workerMemory, workerRecycles } of this.schemes.all()) {
      if (workerMemory)
        new Gauge({
          name: workerMemory.name,
          help: workerMemory.help,
          labelNames: ['thread'] as const,
          registers: [this.registry],
          collect() {
            this.reset();
            workerMemory.threadHeapBytes()?.forEach((bytes, thread) => this.set({ thread: String(thread) }, bytes));
          },
        });
      if (workerRecycles) {
        const recycled = new Counter({ name: workerRecycles.name, help: workerRecycles.help, labelNames: ['reason'] as const, registers: [this.registry] });
        // Every reason's series exists from the start, so a scrape shows 0 before the first recycle.
        for (const reason of workerRecycles.reasons) recycled.inc({ reason }, 0);
        workerRecycles.onRecycle((reason) => recycled.inc({ reason }));
      }
    }
  }

  private callbacks(): void {
    const deliveries = new Counter({
      name: 'broker_ciba_callback_deliveries_total',
      help: 'CIBA callback attempts by this instance: delivered, failed and to be retried, or given up',
      labelNames: ['outcome'] as const,
      registers: [this.registry],
    });
    this.telemetry.on('callbackDelivery', (outcome) => deliveries.inc({ outcome }));
    const moduleRef = this.moduleRef;
    new Gauge({
      name: 'broker_ciba_outbox_depth',
      help: 'CIBA callbacks in the outbox (all instances): pending delivery, or failed (given up)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      async collect() {
        // A database that does not answer must not fail the whole scrape: the gauge is left out instead.
        const depth = await Promise.resolve()
          .then(() => moduleRef.get(CibaOutboxService, { strict: false }).depth())
          .catch(() => undefined);
        this.reset();
        if (depth) for (const [state, n] of Object.entries(depth)) this.set({ state }, n);
      },
    });
  }

  private stateGauges(): void {
    const { dataSource, readiness, redis, listeners } = this;
    new Gauge({
      name: 'broker_db_pool_connections',
      help: 'Database pool connections: total, idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const pool = (dataSource.driver as unknown as { master?: PgPool }).master;
        if (!pool) return;
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
    // One readiness report per scrape for both gauges (prom-client collects them concurrently).
    let reporting: ReturnType<ReadinessService['report']> | undefined;
    const report = () => (reporting ??= readiness.report().finally(() => setImmediate(() => (reporting = undefined))));
    new Gauge({
      name: 'broker_ready',
      help: '1 when this instance is ready for traffic (GET /health/ready answers 200)',
      registers: [this.registry],
      async collect() {
        this.set((await report()).status === 'ready' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'broker_readiness_check',
      help: "Each check of GET /health/ready: 1 when it passes (database, redis, migrations, signing_keys, and the running schemes' own, such as face_models), 0 when not",
      labelNames: ['check'] as const,
      registers: [this.registry],
      async collect() {
        const { checks } = await report();
        this.reset();
        for (const [check, state] of Object.entries(checks)) if (check !== 'draining' && state !== 'not_used') this.set({ check }, state === 'ok' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'broker_draining',
      help: '1 while this instance is shutting down',
      registers: [this.registry],
      collect() {
        this.set(readiness.draining ? 1 : 0);
      },
    });
    // Not a readiness check: without its listener an instance still answers correctly (docs/operations.md).
    new Gauge({
      name: 'broker_db_listener_up',
      help: '1 while this instance listens for database change notifications on the channel (merchant_changed, signing_keys_changed), 0 while that connection is down and being made again (only on PostgreSQL)',
      labelNames: ['channel'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { channel, listening } of listeners.states()) this.set({ channel }, listening ? 1 : 0);
      },
    });
    if (redis)
      new Gauge({
        name: 'broker_redis_connected',
        help: '1 when the Redis connection is ready (only with REDIS_URL)',
        registers: [this.registry],
        collect() {
          this.set(redis.status === 'ready' ? 1 : 0);
        },
      });
  }
}
