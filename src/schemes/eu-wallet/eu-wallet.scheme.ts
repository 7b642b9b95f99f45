import { Inject, Injectable } from '@nestjs/common';
import { MDL_DOCTYPE, PID_MDOC_DOCTYPE, PID_SD_JWT_VCT } from '@identity-broker/eu-wallet';
import { IDENTITY_DOCUMENT_OFFER } from '../../broker/spi/identity-assurance/identity-document-evidence.js';
import type { StatesVerification, VerificationOffer } from '../../broker/spi/identity-assurance/identity-verification.js';
import { randomBytes } from 'node:crypto';
import { exportJWK } from 'jose';
import { buildDcqlQuery, createResponseEncryptionKey } from '@identity-broker/eu-wallet';
import { ACR_REQUEST_HIGH } from '../../broker/spi/acr.js';
import { EidScheme, type EidProvider, type EidRequest, type EidStep, type ResumesRedirect, type SupportsAcr } from '../../broker/spi/eid-provider.js';
import { PendingRedirectsService } from '../../broker/spi/redirects/pending-redirects.service.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { DEFAULT_LOCALE, type UiLocale } from '../../i18n/locales.js';
import type { Messages } from '../../i18n/messages.js';
import { WALLET_MESSAGES } from './wallet-messages.js';
import { wantedCredentials } from './claims/wallet-credentials.js';
import { WalletExchangeService } from './exchange/wallet-exchange.service.js';
import { ReusedIdentityTrust } from './trust/reused-identity-trust.service.js';
import { WalletTransactionsService, type WalletAttempt, type WalletRequestData, type WalletResult } from './transactions/wallet-transactions.service.js';
import { WALLET_PATHS } from './wallet-paths.js';
import { attemptOpen, walletWaitingStep } from './wallet-waiting-step.js';
import { walletConfig } from './config/wallet-config.js';

export const EU_WALLET_ID = 'eu-wallet';

/**
 * Tries (pairs of transactions) one sign-in may make: Try again and the renewal of expired requests each make one,
 * and a sign-in lasts 30 minutes, so a person never meets the bound; it keeps a browser from filling the table.
 */
const MAX_TRIES_PER_SIGN_IN = 20;

/**
 * The EU Digital Identity Wallet as an eID scheme (OpenID4VP 1.0, docs/eu-wallet.md). Starting makes a try of two
 * transactions, one per link, each with its flow fixed as it is made: the QR code's (another device), whose answer
 * the page's Continue takes, and the "Open wallet" button's (this device), whose answer only the browser the wallet
 * sends back with its response_code takes (GET /its/eid/callback). A wallet link passed to a victim therefore cannot
 * log its sender in, and no later fetch of a request can turn one flow into the other (OpenID4VP 1.0 §13.3).
 */
@Injectable()
@EidScheme({ order: 20 })
export class EuWalletScheme implements EidProvider, SupportsAcr, ResumesRedirect, StatesVerification {
  readonly id = EU_WALLET_ID;
  readonly testOnly = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly transactions: WalletTransactionsService,
    private readonly exchange: WalletExchangeService,
    private readonly pending: PendingRedirectsService,
    private readonly reused: ReusedIdentityTrust,
  ) {}

  /** PIDs and mDLs as electronic records; the service's own credential, where trusted, as the document it stands for. */
  get verificationOffer(): VerificationOffer {
    const own = this.reused.trusted();
    const records = [PID_SD_JWT_VCT, PID_MDOC_DOCTYPE, MDL_DOCTYPE, ...(own ? [own.vct] : [])];
    return own ? { ...IDENTITY_DOCUMENT_OFFER, evidence: ['electronic_record', 'document'], records } : { evidence: ['electronic_record'], records };
  }

  displayName(_messages: Messages, locale: UiLocale = DEFAULT_LOCALE): string {
    return WALLET_MESSAGES[locale].name;
  }

  /**
   * Only a PID from a provider trusted at level high earns it (customer-test trusts its test PID provider so), or the
   * service's own credential from a verification that reached high, recent enough for the merchant.
   */
  supportsAcr(acr: string): boolean {
    return (
      acr === ACR_REQUEST_HIGH && (!this.config.isProduction || walletConfig(this.config).anchors.pidHigh.length > 0 || this.reused.trusted() !== undefined)
    );
  }

  async start(request: EidRequest): Promise<EidStep> {
    const attempt = await this.transactions.currentAttempt(request.interactionUid);
    if (attempt && !attemptEnded(attempt)) return this.waiting(request, attempt);
    return this.next(request, attempt);
  }

  /**
   * The waiting page's Continue (pressed by its script when the status route says done, or has a notice to show),
   * and its "Try again". Only the cross-device transaction's answer is taken here; a refused answer leaves the page
   * waiting with a notice, for no wallet answer alone may end the person's sign-in.
   */
  async handle(request: EidRequest, input: Record<string, string> = {}): Promise<EidStep> {
    const attempt = await this.transactions.currentAttempt(request.interactionUid);
    if (!attempt) return this.start(request);
    if (input.action === 'retry') {
      if ((await this.transactions.tries(request.interactionUid)) >= MAX_TRIES_PER_SIGN_IN) return this.waiting(request, attempt);
      await this.transactions.close(attempt.crossDevice.attempt);
      return this.next(request, attempt);
    }
    if (attempt.crossDevice.status === 'responded') {
      const result = await this.transactions.consume(attempt.crossDevice);
      return result ? identified(result) : failed('the wallet answer was already used');
    }
    if ([attempt.sameDevice, attempt.crossDevice].some((tx) => tx.status === 'consumed')) return failed('the wallet answer was already used');
    // An expired or closed try is followed by a fresh one: the person may still answer until the sign-in expires.
    if (attemptEnded(attempt)) return this.next(request, attempt);
    return this.waiting(request, attempt);
  }

  /**
   * Back from the wallet on this device, with the response_code it was given for exactly this browser's login. A code
   * that does not fit leaves the page waiting (the broker shows it again): it ends nothing.
   */
  async resume(request: EidRequest, _pending: Record<string, unknown>, query: Record<string, string>): Promise<EidStep> {
    const attempt = await this.transactions.currentAttempt(request.interactionUid);
    const code = query.response_code;
    const result = attempt && typeof code === 'string' && code.length <= 64 ? await this.transactions.consume(attempt.sameDevice, code) : undefined;
    if (result) return identified(result);
    return attempt ? this.waiting(request, attempt) : this.start(request);
  }

  /** A fresh try, within the bound of the sign-in (past it, the sign-in ends: the person can start again at the merchant). */
  private async next(request: EidRequest, previous: WalletAttempt | undefined): Promise<EidStep> {
    if (previous && (await this.transactions.tries(request.interactionUid)) >= MAX_TRIES_PER_SIGN_IN)
      return failed('the sign-in made too many wallet requests');
    return this.waiting(request, await this.create(request));
  }

  /** A try: one transaction per link, each with its own nonce, state and response key; only the same-device one returns. */
  private async create(request: EidRequest): Promise<WalletAttempt> {
    const returnState = await this.pending.create(request.interactionUid, this.id, {});
    const reuse = await this.reused.trustedWithAnchors();
    const wanted = wantedCredentials(request.scopes, reuse && { vct: reuse.provider.vct, acrHigh: request.acrValues.includes(ACR_REQUEST_HIGH) });
    const dcqlQuery = buildDcqlQuery(wanted) as unknown as Record<string, unknown>;
    const requestData = async (returnTo?: string): Promise<WalletRequestData> => {
      const { privateKey, keyId } = createResponseEncryptionKey();
      return {
        nonce: randomBytes(32).toString('base64url'),
        state: randomBytes(32).toString('base64url'),
        encryptionKey: (await exportJWK(privateKey)) as Record<string, unknown>,
        encryptionKeyId: keyId,
        dcqlQuery,
        scopes: request.scopes,
        acrValues: request.acrValues,
        reusedIdentityMaxAgeDays: request.reusedIdentityMaxAgeDays,
        ...(returnTo ? { returnState: returnTo } : {}),
      };
    };
    return this.transactions.create(request.interactionUid, request.clientId, {
      same_device: await requestData(returnState),
      cross_device: await requestData(),
    });
  }

  private async waiting(request: EidRequest, attempt: WalletAttempt): Promise<EidStep> {
    const links = attemptOpen(attempt)
      ? {
          sameDevice: { haip: await this.invocation('haip-vp://', attempt.sameDevice.id), plain: await this.invocation('openid4vp://', attempt.sameDevice.id) },
          crossDevice: await this.invocation('openid4vp://', attempt.crossDevice.id),
        }
      : undefined;
    return walletWaitingStep(request, attempt, links);
  }

  /** The wallet invocation (OpenID4VP 1.0 §5.10, HAIP 1.0 §5): by reference, fetched by POST so the wallet can send its metadata and nonce. */
  private async invocation(scheme: string, id: string): Promise<string> {
    const params = new URLSearchParams({
      client_id: await this.exchange.clientId(),
      request_uri: `${this.config.baseUrl}${WALLET_PATHS.requests}/${id}`,
      request_uri_method: 'post',
    });
    return `${scheme}?${params.toString()}`;
  }
}

/** Ended: expired, closed, or an answer taken (a reload shows the same page until the try ends). */
function attemptEnded(attempt: WalletAttempt, now = new Date()): boolean {
  const rows = [attempt.sameDevice, attempt.crossDevice];
  return rows.some((tx) => tx.expiresAt <= now || tx.status === 'failed' || tx.status === 'consumed');
}

function identified(result: WalletResult): EidStep {
  return {
    kind: 'identified',
    identity: {
      subject: result.subject,
      claims: result.claims,
      birthDate: result.birthDate,
      acr: result.acr,
      amr: result.amr,
      authTime: new Date(result.verifiedAt),
      ...(result.verification ? { verification: result.verification } : {}),
    },
  };
}

const failed = (description: string): EidStep => ({ kind: 'failed', error: 'access_denied', description });
