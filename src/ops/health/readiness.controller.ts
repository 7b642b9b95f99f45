import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { type ReadinessReport, ReadinessService } from './readiness.service.js';

/**
 * Probes for an orchestrator or load balancer. /health/live: the process answers (restart it if not).
 * /health/ready: send it traffic (200) or not (503, the body names the check that is not yet true).
 * The database ping stays at /health.
 */
@ApiExcludeController()
@Controller('health')
export class ReadinessController {
  constructor(private readonly readiness: ReadinessService) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) res: Response): Promise<ReadinessReport> {
    const report = await this.readiness.report();
    res.setHeader('Cache-Control', 'no-store');
    if (report.status !== 'ready') res.status(503);
    return report;
  }
}
