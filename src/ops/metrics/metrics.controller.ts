import { Controller, Get, Inject, NotFoundException, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { UnauthorizedError } from '../../common/errors/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { metricsAccess } from './metrics-access.js';
import { OpsMetrics } from './ops-metrics.service.js';

/** GET /metrics on the service's port: Prometheus text, only with METRICS_TOKEN (README, Operations). */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: OpsMetrics,
  ) {}

  @Get()
  async scrape(@Req() req: Request, @Res() res: Response): Promise<void> {
    const access = metricsAccess(req.headers.authorization, this.config.ops.metrics.token, false);
    // The same answer as any unknown route: nothing tells a visitor that metrics exist.
    if (access === 'not_found') throw new NotFoundException('Cannot GET /metrics');
    if (access === 'unauthorized') {
      const e = new UnauthorizedError('the metrics bearer token is required');
      e.headers = { 'WWW-Authenticate': 'Bearer realm="metrics"' };
      throw e;
    }
    res.type(this.metrics.registry.contentType).send(await this.metrics.registry.metrics());
  }
}
