import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { AppError } from '../../common/errors/app-error.js';
import { renderPlainError } from '../../common/errors/plain-error-writer.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { ReadinessService } from '../health/readiness.service.js';
import { metricsAccess } from './metrics-access.js';
import { OpsMetrics } from './ops-metrics.service.js';

/**
 * METRICS_PORT: a second listener with /metrics and the two probes only, for a scraper and an orchestrator on
 * the private network. It outlives the service's port during a drain, so readiness is seen going 503 there.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: Server;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: OpsMetrics,
    private readonly readiness: ReadinessService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.ops.metrics.port;
    if (port === undefined) return;
    const server = createServer((req, res) => void this.answer(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, () => resolve());
    });
    this.server = server;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    };
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new AppError(405, 'method_not_allowed', 'only GET');
      if (path === '/health/live') return json(200, { status: 'ok' });
      if (path === '/health/ready') {
        const report = await this.readiness.report();
        return json(report.status === 'ready' ? 200 : 503, report);
      }
      if (path !== '/metrics') throw new AppError(404, 'not_found', `Cannot GET ${path.slice(0, 100)}`);
      if (metricsAccess(req.headers.authorization, this.config.ops.metrics.token, true) !== 'granted') throw metricsTokenRequired();
      res.writeHead(200, { 'content-type': this.metrics.registry.contentType }).end(await this.metrics.registry.metrics());
    } catch (err) {
      renderPlainError(res, err);
    }
  }
}

function metricsTokenRequired(): AppError {
  const error = new AppError(401, 'unauthorized', 'the metrics bearer token is required');
  error.headers = { 'www-authenticate': 'Bearer realm="metrics"' };
  return error;
}
