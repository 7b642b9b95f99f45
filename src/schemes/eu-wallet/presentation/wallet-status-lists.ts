import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { requireValidStatus, StatusListChecker, type PresentationSigner, WalletCheckError } from '@identity-broker/eu-wallet';
import type { ReusableCredentialProvider } from '../../../broker/spi/reusable-credentials.js';
import { outboundGet } from '../../../common/outbound/outbound-fetch.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { WalletTrustService } from '../trust/wallet-trust.service.js';
import { walletConfig } from '../config/wallet-config.js';

/** A status list token is a JWT over a compressed bit array: a million credentials at 1 bit are 125 KB before compression. */
const MAX_STATUS_LIST_BYTES = 1024 * 1024;
const TIMEOUT_MS = 5000;

/**
 * Token Status Lists, fetched through the address-checking agent (private and reserved addresses refused at connect
 * time; loopback only in customer-test), https only in production, one checker (and so one cache) per trust list.
 * Each list must be signed by the credential's issuer (`signer`, the presentation verifier's result; the rule is the
 * library's status-issuer.ts), and its signer's chain passes the same CRL checks as the credentials'. The service's
 * own credentials are the exception: their issuer answers in process (checkOwn).
 */
@Injectable()
export class WalletStatusLists {
  private readonly checkers = new Map<string, StatusListChecker>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly trust: WalletTrustService,
  ) {}

  async check(ref: { uri: string; idx: number }, trustAnchors: Uint8Array[], signer: PresentationSigner): Promise<void> {
    const revocation = await this.trust.revocation();
    const key = trustAnchors.map((a) => createHash('sha256').update(a).digest('base64')).join(',');
    let checker = this.checkers.get(key);
    if (!checker) {
      checker = new StatusListChecker({
        fetchStatusList: (uri) => this.fetch(uri),
        trustAnchors,
        maxCacheSeconds: walletConfig(this.config).statusListMaxCacheSeconds,
        revocation,
      });
      this.checkers.set(key, checker);
    }
    await checker.check(ref, signer);
  }

  /**
   * The status of one of the service's own credentials: asked of its provider, which reads the issuer's current state
   * for the lists it claims (no HTTP to ourselves, which the address filter may refuse behind a load balancer, and
   * no cache here: a revocation counts at the next presentation). A uri it does not claim, or a provider that cannot
   * answer in process, is fetched over HTTP as any other list. Fails closed like the HTTP path.
   */
  async checkOwn(
    ref: { uri: string; idx: number },
    provider: ReusableCredentialProvider,
    trustAnchors: Uint8Array[],
    signer: PresentationSigner,
  ): Promise<void> {
    let status: number | undefined;
    try {
      status = await provider.statusOf?.(ref);
    } catch (cause) {
      throw new WalletCheckError('revoked', 'status could not be established: the issuer could not read its status list', { cause });
    }
    if (status === undefined) return this.check(ref, trustAnchors, signer);
    requireValidStatus(status);
  }

  private async fetch(uri: string): Promise<string> {
    const url = URL.canParse(uri) ? new URL(uri) : undefined;
    const allowed = url && (url.protocol === 'https:' || (!this.config.isProduction && url.protocol === 'http:'));
    if (!url || !allowed) throw new WalletCheckError('revoked', 'the status list address is not an https URL');
    const res = await outboundGet(
      url,
      { allowLoopback: !this.config.isProduction },
      { maxBytes: MAX_STATUS_LIST_BYTES, timeoutMs: TIMEOUT_MS, accept: 'application/statuslist+jwt' },
    );
    if (res.status !== 200) throw new WalletCheckError('revoked', `the status list answered ${res.status}`);
    return res.body.toString('utf8');
  }
}
