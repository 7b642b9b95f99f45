import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { VerificationSessionsService } from '../session/verification-sessions.service.js';

const DONE = new Set(['completed', 'cancelled', 'expired']);

/** What the waiting page's script polls: only whether the phone is done (no data, no personal details). */
@ApiExcludeController()
@Controller('its/interaction/:uid/verifier-status')
export class VerifierStatusController {
  constructor(private readonly sessions: VerificationSessionsService) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async status(@Param('uid') uid: string): Promise<{ state: string; done: boolean }> {
    const session = await this.sessions.forInteraction(uid);
    const state = session?.state ?? 'unknown';
    return { state, done: DONE.has(state) };
  }
}
