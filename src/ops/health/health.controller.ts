import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { DatabasePing } from '../../database/database-ping.js';
import { type ReadinessReport, ReadinessService } from './readiness.service.js';

class HealthDto {
  @ApiProperty({ enum: ['ok', 'unavailable'] }) status: 'ok' | 'unavailable';
  @ApiProperty({ enum: ['up', 'down'] }) database: 'up' | 'down';
}

/**
 * Health of one instance. /health: the database answers (a person's or a monitor's check). /health/live: the
 * process answers (restart it if not). /health/ready: send it traffic (200) or not (503, the body names the check
 * that is not yet true). The two probes are for an orchestrator, not part of the documented API.
 */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly databasePing: DatabasePing,
    private readonly readiness: ReadinessService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Database check: 503 when the database does not answer within DATABASE_PING_TIMEOUT_MS' })
  @ApiOkResponse({ type: HealthDto })
  @ApiServiceUnavailableResponse({ type: HealthDto })
  async health(@Res({ passthrough: true }) res: Response): Promise<HealthDto> {
    // Bounded (DATABASE_PING_TIMEOUT_MS): a stuck database answers 503 instead of a probe that never returns.
    if (await this.databasePing.answers()) return { status: 'ok', database: 'up' };
    res.status(503);
    return { status: 'unavailable', database: 'down' };
  }

  @Get('live')
  @ApiExcludeEndpoint()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiExcludeEndpoint()
  async ready(@Res({ passthrough: true }) res: Response): Promise<ReadinessReport> {
    const report = await this.readiness.report();
    res.setHeader('Cache-Control', 'no-store');
    if (report.status !== 'ready') res.status(503);
    return report;
  }
}
