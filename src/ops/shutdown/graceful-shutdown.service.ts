import { Inject, Injectable, type INestApplication } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { setTimeout as sleep } from 'node:timers/promises';
import { logger } from '../../common/logging/logger.js';
import { Telemetry } from '../../common/telemetry/telemetry.js';
import { CibaOutboxService } from '../../ciba/outbox/ciba-outbox.service.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { ReadinessService } from '../health/readiness.service.js';
import { HttpObserver } from '../http-observer.js';

export interface ShutdownSummary {
  signal: string;
  duration_ms: number;
  /** Requests and face verifications still running when the grace time ran out (0 on a clean drain). */
  requests_cut: number;
  face_work_cut: number;
  /** False when closing (the outbox, the pools, the workers) did not end within the grace time and was abandoned. */
  closed: boolean;
}

/** The share of the grace time kept for closing the pools once the drain is over, at most CLOSE_RESERVE_MAX_MS. */
const CLOSE_RESERVE_SHARE = 0.2;
const CLOSE_RESERVE_MAX_MS = 5000;

/**
 * SIGTERM (or SIGINT): readiness goes 503 and the port stops accepting at once; requests in flight and face
 * work may finish until the last part of SHUTDOWN_GRACE_SECONDS (what is left then is cut); the outbox ticker stops
 * after its round in flight has written its results; then Nest's hooks close the Redis connection, the face workers
 * and the database pool. The whole shutdown ends within the grace time: closing that does not finish by then (a
 * request hung on the database holds the pool's connection) is abandoned, and the process exits all the same, for an
 * orchestrator's SIGKILL would otherwise be the only way out. One log line; exit 0, or 1 when closing was abandoned.
 */
@Injectable()
export class GracefulShutdown {
  private faceWork = 0;
  private running?: Promise<ShutdownSummary>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly readiness: ReadinessService,
    private readonly http: HttpObserver,
    private readonly moduleRef: ModuleRef,
    telemetry: Telemetry,
  ) {
    telemetry.on('faceQueue', (running, waiting) => (this.faceWork = running + waiting));
  }

  /** main.ts: the process's signal handlers (instead of Nest's, which would end the process by the signal, not 0). */
  installSignalHandlers(app: INestApplication): void {
    const onSignal = (signal: NodeJS.Signals) => {
      // A second signal changes nothing: the grace time already bounds the drain.
      if (this.running) return;
      this.shutdown(app, signal).then(
        (summary) => process.exit(summary.closed ? 0 : 1),
        (err: unknown) => {
          logger.fatal({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }

  shutdown(app: INestApplication, signal: string): Promise<ShutdownSummary> {
    this.running ??= this.drain(app, signal);
    return this.running;
  }

  private async drain(app: INestApplication, signal: string): Promise<ShutdownSummary> {
    const started = Date.now();
    const graceMs = this.config.ops.shutdownGraceSeconds * 1000;
    const deadline = started + graceMs;
    const drainUntil = deadline - Math.min(graceMs * CLOSE_RESERVE_SHARE, CLOSE_RESERVE_MAX_MS);
    this.readiness.startDraining();
    this.http.closeConnectionsAfterResponses();
    const server = this.http.server;
    // No new connection from here; idle keep-alive connections are closed (Node closes them on close()).
    server.close();
    // A connection whose request has finished goes idle: close it then, so the client does not send another.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    try {
      await Promise.race([this.http.whenIdle(), sleep(Math.max(0, drainUntil - Date.now()), undefined, { ref: false })]);
      // Face work can outlive its request (the app hung up): it holds decoded frames and a worker, let it end.
      while (this.faceWork > 0 && Date.now() < drainUntil) await sleep(50);
    } finally {
      clearInterval(sweep);
    }
    const summary: ShutdownSummary = { signal, duration_ms: 0, requests_cut: this.http.requestsInFlight, face_work_cut: this.faceWork, closed: false };
    server.closeAllConnections();
    const closing = (async () => {
      await this.stopOutbox();
      await app.close();
      return true;
    })();
    summary.closed = await Promise.race([closing, sleep(Math.max(0, deadline - Date.now()), false, { ref: false })]);
    closing.catch((err: unknown) => logger.error({ err }, 'closing after the grace time failed'));
    summary.duration_ms = Date.now() - started;
    const clean = summary.requests_cut === 0 && summary.face_work_cut === 0 && summary.closed;
    if (clean) logger.info(summary, 'shutdown complete');
    else if (!summary.closed) logger.error(summary, 'shutdown: closing did not end within the grace time and was abandoned');
    else logger.warn(summary, 'shutdown complete: grace time over, work cut');
    return summary;
  }

  /** Before the database closes: no new round, and the round in flight writes its results (its rows' leases stay valid). */
  private async stopOutbox(): Promise<void> {
    try {
      await this.moduleRef.get(CibaOutboxService, { strict: false }).onApplicationShutdown();
    } catch (err) {
      logger.error({ err }, 'ciba outbox did not stop cleanly');
    }
  }
}
