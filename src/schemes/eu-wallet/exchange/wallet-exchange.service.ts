import { Inject, Injectable } from '@nestjs/common';
import type { JWK } from 'jose';
import {
  createRequestObject,
  openAuthorizationResponse,
  parseRequestUriPost,
  x509HashClientId,
  x509SanDnsClientId,
  WalletCheckError,
} from '@identity-broker/eu-wallet';
import { AppError, BadRequestError, NotFoundError } from '../../../common/errors/app-error.js';
import { logger } from '../../../common/logging/logger.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { WalletPresentationsService } from '../presentation/wallet-presentations.service.js';
import { WalletTransactionsService } from '../transactions/wallet-transactions.service.js';
import { WalletTrustService } from '../trust/wallet-trust.service.js';
import { WALLET_PATHS } from '../wallet-paths.js';
import { walletConfig } from '../config/wallet-config.js';

/** HAIP 1.0: both offered; the response must use one of them. */
const OFFERED_ENC = ['A128GCM', 'A256GCM'];

/** What the wallet gets back from the response_uri (OpenID4VP 1.0 §8.2): where to send the user, same-device only. */
export interface ResponseAnswer {
  redirect_uri?: string;
}

/**
 * The two calls a wallet makes: it fetches the signed request (request_uri, by GET or by POST with its metadata and
 * nonce) and posts its encrypted answer (response_uri). Both find the transaction by its public id, whose flow was
 * fixed when it was made. The answer is taken once; a refused one, or a wallet's error, is noted for the person's
 * page and leaves the transaction open, for an answer is a stranger's until its presentation verifies.
 */
@Injectable()
export class WalletExchangeService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly transactions: WalletTransactionsService,
    private readonly trust: WalletTrustService,
    private readonly presentations: WalletPresentationsService,
  ) {}

  /** The client identifier of the request signer, with its OpenID4VP 1.0 prefix. */
  async clientId(): Promise<string> {
    const signer = await this.trust.signer();
    return walletConfig(this.config).clientIdPrefix === 'x509_hash'
      ? x509HashClientId(signer.chain[0])
      : x509SanDnsClientId(new URL(this.config.baseUrl).hostname);
  }

  responseUri(id: string): string {
    return `${this.config.baseUrl}${WALLET_PATHS.responses}/${id}`;
  }

  async requestObject(id: string, form?: Record<string, unknown>): Promise<string> {
    const tx = await this.transactions.live(id);
    if (!tx) throw new NotFoundError('no wallet request with this id, or it has expired');
    let walletNonce: string | undefined;
    try {
      walletNonce = form ? parseRequestUriPost(form as Record<string, string>).walletNonce : undefined;
    } catch (e) {
      if (e instanceof WalletCheckError) throw new BadRequestError(e.message);
      throw e;
    }
    if (!(await this.transactions.requestFetched(id))) throw new BadRequestError('this wallet request was already answered');
    const request = this.transactions.request(tx);
    const { d: _private, ...publicJwk } = request.encryptionKey as JWK;
    return createRequestObject({
      signer: await this.trust.signer(),
      clientId: await this.clientId(),
      responseUri: this.responseUri(id),
      nonce: request.nonce,
      state: request.state,
      dcqlQuery: request.dcqlQuery as never,
      responseEncryptionKey: { ...publicJwk, kid: request.encryptionKeyId, use: 'enc', alg: 'ECDH-ES' },
      walletNonce,
      lifetimeSeconds: Math.min(300, Math.max(1, Math.floor((tx.expiresAt.getTime() - Date.now()) / 1000))),
      allowHttpLoopback: !this.config.isProduction,
    });
  }

  async respond(id: string, form: Record<string, unknown>): Promise<ResponseAnswer> {
    const tx = await this.transactions.live(id);
    if (!tx) throw new BadRequestError('no wallet request with this id, or it has expired');
    const request = this.transactions.request(tx);
    let opened;
    try {
      opened = await openAuthorizationResponse({
        form,
        decryptionKey: request.encryptionKey as JWK,
        keyId: request.encryptionKeyId,
        offeredEnc: OFFERED_ENC,
        expectedState: request.state,
      });
    } catch (e) {
      // Not ours to open (garbage, another key, another state): refused, and the transaction stays for the real wallet.
      if (e instanceof WalletCheckError) throw refusal(e);
      throw e;
    }
    if (tx.status !== 'created' && tx.status !== 'request_fetched') throw refusal(new WalletCheckError('replayed', 'this wallet request was already answered'));
    if (opened.kind === 'error') {
      await this.transactions.noteRefusal(id, `wallet_${opened.error}`.slice(0, 64));
      logger.info({ wallet_error: opened.error }, 'the wallet declined the request');
      return {};
    }
    try {
      const binding = { transactionId: id, clientId: await this.clientId(), responseUri: this.responseUri(id), acrValues: request.acrValues };
      const result = await this.presentations.verify(request, binding, opened.vpToken);
      const { taken, responseCode } = await this.transactions.respond(id, result, tx.flow === 'same_device');
      if (!taken) throw new WalletCheckError('replayed', 'this wallet request was already answered');
      logger.info({ credential: result.credential }, 'wallet presentation verified');
      return responseCode && request.returnState
        ? { redirect_uri: `${this.config.baseUrl}/its/eid/callback?state=${encodeURIComponent(request.returnState)}&response_code=${responseCode}` }
        : {};
    } catch (e) {
      if (!(e instanceof WalletCheckError)) throw e;
      if (e.code !== 'replayed') await this.transactions.noteRefusal(id, e.code);
      logger.info({ refused: e.code, reason: e.message }, 'wallet presentation refused');
      throw refusal(e);
    }
  }
}

/** OpenID4VP 1.0 §8.2: errors at the response endpoint are the OAuth error object; `check` says which, never a value. */
function refusal(e: WalletCheckError): AppError {
  const error = new BadRequestError(e.message);
  error.publicFields = { check: e.code };
  return error;
}
