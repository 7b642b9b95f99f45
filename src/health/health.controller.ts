import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { DatabasePing } from '../database/database-ping.js';

class HealthDto {
  @ApiProperty({ enum: ['ok', 'unavailable'] }) status: 'ok' | 'unavailable';
  @ApiProperty({ enum: ['up', 'down'] }) database: 'up' | 'down';
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly databasePing: DatabasePing) {}

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
}
