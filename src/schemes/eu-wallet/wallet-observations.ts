import { Injectable } from '@nestjs/common';
import { ObservedScheme, type ExpiringCertificates, type SchemeObservations } from '../../broker/spi/scheme-observations.js';
import { WalletTrustService } from './trust/wallet-trust.service.js';

/** The wallet's certificates whose end the operator watches (docs/operations.md): its request signer and trust anchors. */
@ObservedScheme()
@Injectable()
export class WalletObservations implements SchemeObservations {
  constructor(private readonly wallet: WalletTrustService) {}

  expiringCertificates(): ExpiringCertificates[] {
    return [
      { purpose: 'wallet_request_signing', read: () => this.wallet.signer().then((s) => s.chain) },
      { purpose: 'wallet_pid_anchor', read: () => this.wallet.anchors().then((a) => [...a.pid, ...a.pidHigh]) },
      { purpose: 'wallet_mdl_anchor', read: () => this.wallet.anchors().then((a) => a.mdl) },
    ];
  }
}
