import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { exportJWK } from 'jose';
import { buildDcqlQuery, createResponseEncryptionKey } from '../../../libs/eu-wallet/src/index.js';
import { ACR_REQUEST_HIGH } from '../../broker/spi/acr.js';
import { EidScheme, type EidProvider, type EidRequest, type EidStep, type ProgressStep, type ResumesRedirect, type SupportsAcr } from '../../broker/spi/eid-provider.js';
import { PendingRedirectsService } from '../../broker/spi/redirects/pending-redirects.service.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { DEFAULT_LOCALE, type UiLocale } from '../../i18n/locales.js';
import type { Messages } from '../../i18n/messages.js';
import { WALLET_MESSAGES } from '../../i18n/wallet-messages.js';
import { wantedCredentials } from './claims/wallet-credentials.js';
import { WalletExchangeService } from './exchange/wallet-exchange.service.js';
import { ReusedIdentityTrust } from './trust/reused-identity-trust.service.js';
import type { WalletTransactionEntity } from './transactions/wallet-transaction.entity.js';
import { WalletTransactionsService, type WalletResult } from './transactions/wallet-transactions.service.js';
import { WALLET_PATHS, type WalletFlow } from './wallet-paths.js';

export const EU_WALLET_ID = 'eu-wallet';

/**
 * The EU Digital Identity Wallet as an eID scheme (OpenID4VP 1.0, docs/eu-wallet.md). Starting makes one transaction
 * (nonce, state, a response key, the DCQL query of the merchant's scopes) and shows its QR code (another device)
 * and its "Open wallet" button (this device). A cross-device answer is taken by the page's Continue; a same-device
 * answer only by the browser the wallet sends back with its response_code (GET /its/eid/callback), so that a wallet
 * link passed to a victim cannot log its sender in (OpenID4VP 1.0 §13.3).
 */
@Injectable()
@EidScheme({ order: 20 })
export class EuWalletScheme implements EidProvider, SupportsAcr, ResumesRedirect {
  readonly id = EU_WALLET_ID;
  readonly testOnly = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly transactions: WalletTransactionsService,
    private readonly exchange: WalletExchangeService,
    private readonly pending: PendingRedirectsService,
    private readonly reused: ReusedIdentityTrust,
  ) {}

  displayName(_messages: Messages, locale: UiLocale = DEFAULT_LOCALE): string {
    return WALLET_MESSAGES[locale].name;
  }

  /**
   * Only a PID from a provider trusted at level high earns it (customer-test trusts its test PID provider so), or the
   * service's own credential from a verification that reached high, recent enough for the merchant.
   */
  supportsAcr(acr: string): boolean {
    return acr === ACR_REQUEST_HIGH && (!this.config.isProduction || this.config.wallet.anchors.pidHigh.length > 0 || this.reused.trusted() !== undefined);
  }

  async start(request: EidRequest): Promise<EidStep> {
    const tx = await this.transactions.forInteraction(request.interactionUid);
    if (tx && tx.expiresAt > new Date() && (tx.status === 'created' || tx.status === 'request_fetched')) return this.waiting(request, tx);
    return this.waiting(request, await this.create(request));
  }

  /** The waiting page's Continue (pressed by its script when the status route says done). */
  async handle(request: EidRequest): Promise<EidStep> {
    const tx = await this.transactions.forInteraction(request.interactionUid);
    if (!tx) return this.start(request);
    if (tx.status === 'responded' && tx.flow === 'cross_device') {
      const result = await this.transactions.consume(tx);
      return result ? identified(result) : failed('the wallet answer was already used');
    }
    if (tx.status === 'failed') return failed(`the wallet answer was refused (${tx.failure})`);
    if (tx.status === 'consumed') return failed('the wallet answer was already used');
    if (tx.expiresAt <= new Date()) return failed('the wallet request expired');
    return this.waiting(request, tx);
  }

  /** Back from the wallet on this device, with the response_code it was given for exactly this browser's login. */
  async resume(request: EidRequest, _pending: Record<string, unknown>, query: Record<string, string>): Promise<EidStep> {
    const tx = await this.transactions.forInteraction(request.interactionUid);
    const code = query.response_code;
    const result = tx && typeof code === 'string' && code.length <= 64 ? await this.transactions.consume(tx, code) : undefined;
    return result ? identified(result) : failed('the wallet answer does not belong to this sign-in, or was already used');
  }

  private async create(request: EidRequest): Promise<WalletTransactionEntity> {
    const { privateKey, keyId } = createResponseEncryptionKey();
    const returnState = await this.pending.create(request.interactionUid, this.id, {});
    const reuse = await this.reused.trustedWithAnchors();
    const wanted = wantedCredentials(request.scopes, reuse && { vct: reuse.provider.vct, acrHigh: request.acrValues.includes(ACR_REQUEST_HIGH) });
    return this.transactions.create(request.interactionUid, request.clientId, {
      nonce: randomBytes(32).toString('base64url'),
      state: randomBytes(32).toString('base64url'),
      encryptionKey: (await exportJWK(privateKey)) as Record<string, unknown>,
      encryptionKeyId: keyId,
      dcqlQuery: buildDcqlQuery(wanted) as unknown as Record<string, unknown>,
      scopes: request.scopes,
      acrValues: request.acrValues,
      reusedIdentityMaxAgeDays: request.reusedIdentityMaxAgeDays,
      returnState,
    });
  }

  private async waiting(request: EidRequest, tx: WalletTransactionEntity): Promise<EidStep> {
    const texts = WALLET_MESSAGES[request.locale];
    const open = tx.status === 'created';
    const crossDevice = open ? await this.invocation('openid4vp://', tx.id, 'cross_device') : '';
    return {
      kind: 'waiting',
      title: texts.title,
      qrSvg: crossDevice ? await (await import('qrcode')).default.toString(crossDevice, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, width: 240 }) : '',
      link: open ? await this.invocation('haip-vp://', tx.id, 'same_device') : '',
      statusUrl: `/its/interaction/${request.interactionUid}/wallet-status`,
      state: tx.status,
      progress: walletProgress(tx),
      texts,
      steps: ['phone_connected', 'done'],
      // HAIP wallets open haip-vp://; other OpenID4VP wallets only openid4vp:// (OpenID4VP 1.0 §13.1.1).
      ...(open ? { alternate: { label: texts.openOther, href: await this.invocation('openid4vp://', tx.id, 'same_device') } } : {}),
    };
  }

  /**
   * The wallet invocation (OpenID4VP 1.0 §5.10, HAIP 1.0 §5): by reference, fetched by POST so the wallet can send
   * its metadata and nonce. The flow is in the request_uri, so the answer knows whether to send the user back.
   */
  private async invocation(scheme: string, id: string, flow: WalletFlow): Promise<string> {
    const requestUri = `${this.config.baseUrl}${WALLET_PATHS.requests}/${id}?flow=${flow}`;
    const params = new URLSearchParams({ client_id: await this.exchange.clientId(), request_uri: requestUri, request_uri_method: 'post' });
    return `${scheme}?${params.toString()}`;
  }
}

/** The transaction as the waiting page's steps: a wallet fetched the request; an answer was taken or refused. */
export function walletProgress(tx: Pick<WalletTransactionEntity, 'status' | 'expiresAt'>): ProgressStep {
  if (tx.status === 'failed' || tx.expiresAt <= new Date()) return 'stopped';
  if (tx.status === 'created') return 'waiting';
  if (tx.status === 'request_fetched') return 'phone_connected';
  return 'done';
}

function identified(result: WalletResult): EidStep {
  return {
    kind: 'identified',
    identity: { subject: result.subject, claims: result.claims, birthDate: result.birthDate, acr: result.acr, amr: result.amr, authTime: new Date(result.verifiedAt) },
  };
}

const failed = (description: string): EidStep => ({ kind: 'failed', error: 'access_denied', description });
