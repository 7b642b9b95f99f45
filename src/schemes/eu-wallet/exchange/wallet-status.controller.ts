import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ProgressStep } from '../../../broker/spi/eid-provider.js';
import { WalletTransactionsService } from '../transactions/wallet-transactions.service.js';
import { attemptProgress, noticeKey } from '../wallet-waiting-step.js';

/**
 * What the waiting page's script polls: the step (wallet connected, done), whether Continue should be pressed, and the
 * key of the newest notice (a refused answer) for the page to show. A same-device answer is not "done" here: only the
 * browser the wallet sends back with the response_code takes it.
 */
@ApiExcludeController()
@Controller('its/interaction/:uid/wallet-status')
export class WalletStatusController {
  constructor(private readonly transactions: WalletTransactionsService) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async status(@Param('uid') uid: string): Promise<{ step: ProgressStep; done: boolean; notice: string }> {
    const attempt = await this.transactions.currentAttempt(uid);
    if (!attempt) return { step: 'stopped', done: true, notice: '' };
    const step = attemptProgress(attempt);
    const taken = attempt.crossDevice.status === 'responded' || [attempt.sameDevice, attempt.crossDevice].some((tx) => tx.status === 'consumed');
    return { step, done: step === 'stopped' || taken, notice: noticeKey(attempt) };
  }
}
