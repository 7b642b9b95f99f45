import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { OidcProviderService } from '../oidc/provider/oidc-provider.service.js';
import { OpsMetrics } from './metrics/ops-metrics.service.js';
import { rawPathOf, routeLabel } from './metrics/route-label.js';

/**
 * Sees every request of the service's port from the server itself (before Express): times it for the metrics
 * and counts the requests in flight, which the graceful shutdown waits for.
 */
@Injectable()
export class HttpObserver implements OnApplicationBootstrap {
  private readonly inFlight = new Set<ServerResponse>();
  private closing = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly metrics: OpsMetrics,
    private readonly oidc: OidcProviderService,
  ) {}

  get server(): Server {
    return this.adapterHost.httpAdapter.getHttpServer() as Server;
  }

  get requestsInFlight(): number {
    return this.inFlight.size;
  }

  /**
   * From now on every response says `Connection: close` (those in flight included, unless their headers are
   * out already), so no client sends another request on a connection that is about to close.
   */
  closeConnectionsAfterResponses(): void {
    this.closing = true;
    for (const res of this.inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
  }

  onApplicationBootstrap(): void {
    this.server.on('request', (req: IncomingMessage, res: ServerResponse) => this.observe(req, res));
  }

  /** Resolves once no request is in flight (at once if none is). */
  whenIdle(): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private observe(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    const rawPath = rawPathOf(req.url);
    this.inFlight.add(res);
    if (this.closing) res.setHeader('Connection', 'close');
    // A rebuilt engine (new signing keys) gets its event listeners before it answers anything.
    this.metrics.engineEvents.watch(this.oidc.engine);
    res.once('finish', () => {
      this.metrics.httpDuration.observe(
        { method: req.method ?? 'OTHER', route: routeLabel(req, rawPath), status: String(res.statusCode) },
        (performance.now() - started) / 1000,
      );
    });
    // 'close' comes after 'finish', or alone when the client went away: either way the request is over.
    res.once('close', () => {
      this.inFlight.delete(res);
      if (this.inFlight.size > 0) return;
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    });
  }
}
