import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ProgressStep } from '../../../broker/spi/eid-provider.js';
import { VerificationSessionsService } from '../session/verification-sessions.service.js';
import { progressOf } from './document-verifier.provider.js';

const DONE = new Set(['completed', 'cancelled', 'expired']);

/**
 * What the waiting page's script polls: the session's state, the step the page shows (phone connected,
 * document read…) and whether the phone is done. Never data about the person.
 */
@ApiExcludeController()
@Controller('its/interaction/:uid/verifier-status')
export class VerifierStatusController {
  constructor(private readonly sessions: VerificationSessionsService) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async status(@Param('uid') uid: string): Promise<{ state: string; step: ProgressStep; done: boolean }> {
    const session = await this.sessions.forInteraction(uid);
    const state = session?.state ?? 'unknown';
    return { state, step: progressOf(state), done: DONE.has(state) };
  }
}
