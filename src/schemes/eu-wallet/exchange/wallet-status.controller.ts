import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ProgressStep } from '../../../broker/spi/eid-provider.js';
import { walletProgress } from '../eu-wallet.scheme.js';
import { WalletTransactionsService } from '../transactions/wallet-transactions.service.js';

/**
 * What the waiting page's script polls: the step (wallet connected, done) and whether Continue should be pressed.
 * A same-device answer is not "done" here: only the browser the wallet sends back with the response_code takes it.
 */
@ApiExcludeController()
@Controller('its/interaction/:uid/wallet-status')
export class WalletStatusController {
  constructor(private readonly transactions: WalletTransactionsService) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async status(@Param('uid') uid: string): Promise<{ state: string; step: ProgressStep; done: boolean }> {
    const tx = await this.transactions.forInteraction(uid);
    if (!tx) return { state: 'unknown', step: 'stopped', done: true };
    const step = walletProgress(tx);
    const done = step === 'stopped' || tx.status === 'consumed' || (tx.status === 'responded' && tx.flow === 'cross_device');
    return { state: tx.status, step, done };
  }
}
