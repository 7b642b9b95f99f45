import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DataSource, In, LessThanOrEqual, MoreThan, Repository } from 'typeorm';
import { SecretBox } from '../../../common/crypto/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { ExclusiveJobs } from '../../../database/exclusive-jobs.js';
import type { WalletCheckCode } from '../../../../libs/eu-wallet/src/errors.js';
import { WalletTransactionEntity } from './wallet-transaction.entity.js';

/** What the request object carried and the answer must match, sealed: nonce, state, the response key, the query. */
export interface WalletRequestData {
  nonce: string;
  state: string;
  /** The ephemeral response encryption key (private JWK) and its kid. */
  encryptionKey: Record<string, unknown>;
  encryptionKeyId: string;
  dcqlQuery: Record<string, unknown>;
  scopes: string[];
  /** The merchant's acr_values: acr high is given only when asked for. */
  acrValues: string[];
  /** The merchant's reused_identity_max_age_days (absent in transactions made before it existed: the default). */
  reusedIdentityMaxAgeDays?: number;
  /** The broker's pending-redirect state for the same-device return (GET /its/eid/callback). */
  returnState: string;
}

/** The identity a verified presentation gave, sealed until the browser takes it. */
export interface WalletResult {
  subject: string;
  claims: Record<string, unknown>;
  birthDate?: string;
  acr?: string;
  amr: string[];
  /** The credential that answered (pid_sd_jwt, pid_mdoc, mdl, reused_identity) and its issuer, for the record. */
  credential: string;
  issuer: string;
  verifiedAt: string;
}

const OPEN: WalletTransactionEntity['status'][] = ['created', 'request_fetched'];
/** Expired transactions (their sealed keys and any identity not taken) are deleted within this long of expiring. */
const PURGE_MS = 10 * 60 * 1000;
const hashOf = (code: string) => createHash('sha256').update(code).digest();
const requestContext = (id: string) => `wallet-request:${id}`;
const resultContext = (id: string) => `wallet-result:${id}`;

/**
 * The OpenID4VP transactions. Every change of state is one conditional UPDATE, so that of two answers posted at
 * once exactly one is taken (a second gets `replayed`), and the identity is handed to the browser once.
 */
@Injectable()
export class WalletTransactionsService implements OnModuleInit {
  private readonly repo: Repository<WalletTransactionEntity>;

  constructor(
    dataSource: DataSource,
    private readonly secretBox: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ExclusiveJobs,
  ) {
    this.repo = dataSource.getRepository(WalletTransactionEntity);
  }

  onModuleInit(): void {
    this.jobs.schedule('wallet-transaction-purge', PURGE_MS, () => this.purgeExpired());
  }

  async create(interactionUid: string, clientId: string, request: WalletRequestData, now = new Date()): Promise<WalletTransactionEntity> {
    const id = randomBytes(24).toString('base64url');
    const row = this.repo.create({
      id,
      interactionUid,
      clientId,
      status: 'created',
      flow: null,
      requestSealed: this.secretBox.encrypt(JSON.stringify(request), requestContext(id)),
      resultSealed: null,
      failure: null,
      responseCodeHash: null,
      expiresAt: new Date(now.getTime() + this.config.wallet.requestTtlSeconds * 1000),
    });
    await this.repo.insert(row);
    return row;
  }

  /** A live transaction by its public id (unknown and expired ones alike: undefined). */
  async live(id: string, now = new Date()): Promise<WalletTransactionEntity | undefined> {
    if (!/^[A-Za-z0-9_-]{32}$/.test(id)) return undefined;
    const row = await this.repo.findOneBy({ id });
    return row && row.expiresAt > now ? row : undefined;
  }

  /** The interaction's newest transaction, if any. */
  async forInteraction(interactionUid: string): Promise<WalletTransactionEntity | undefined> {
    return (await this.repo.findOne({ where: { interactionUid }, order: { createdAt: 'DESC' } })) ?? undefined;
  }

  request(row: WalletTransactionEntity): WalletRequestData {
    return JSON.parse(this.secretBox.decryptText(row.requestSealed, requestContext(row.id))) as WalletRequestData;
  }

  /** A wallet fetched the request object (again: the last link used decides the flow). */
  async requestFetched(id: string, flow: 'same_device' | 'cross_device', now = new Date()): Promise<boolean> {
    const result = await this.repo.update({ id, status: In(OPEN), expiresAt: MoreThan(now) }, { status: 'request_fetched', flow });
    return (result.affected ?? 0) === 1;
  }

  /**
   * The verified identity, once: false when another answer was taken first (or the transaction ended). For the
   * same-device flow a response_code is returned, which the browser must bring back.
   */
  async respond(id: string, result: WalletResult, withResponseCode: boolean, now = new Date()): Promise<{ taken: boolean; responseCode?: string }> {
    const responseCode = withResponseCode ? randomBytes(32).toString('base64url') : undefined;
    const update = await this.repo.update(
      { id, status: In(OPEN), expiresAt: MoreThan(now) },
      { status: 'responded', resultSealed: this.secretBox.encrypt(JSON.stringify(result), resultContext(id)), responseCodeHash: responseCode ? hashOf(responseCode).toString('base64url') : null },
    );
    return (update.affected ?? 0) === 1 ? { taken: true, responseCode } : { taken: false };
  }

  /** A refused answer or a wallet's error ends the transaction (a second try needs a new QR code). */
  async fail(id: string, failure: WalletCheckCode | string, now = new Date()): Promise<boolean> {
    const update = await this.repo.update({ id, status: In(OPEN), expiresAt: MoreThan(now) }, { status: 'failed', failure: failure.slice(0, 64) });
    return (update.affected ?? 0) === 1;
  }

  /**
   * The identity for the browser, once. With a response code (same-device), only when it is the one handed to the
   * wallet, compared in constant time.
   */
  async consume(row: WalletTransactionEntity, responseCode?: string, now = new Date()): Promise<WalletResult | undefined> {
    if (row.status !== 'responded' || !row.resultSealed || row.expiresAt <= now) return undefined;
    if (responseCode !== undefined) {
      const expected = row.responseCodeHash ? Buffer.from(row.responseCodeHash, 'base64url') : undefined;
      if (!expected || !timingSafeEqual(expected, hashOf(responseCode))) return undefined;
    }
    const update = await this.repo.update({ id: row.id, status: 'responded' }, { status: 'consumed', resultSealed: null });
    if ((update.affected ?? 0) !== 1) return undefined;
    return JSON.parse(this.secretBox.decryptText(row.resultSealed, resultContext(row.id))) as WalletResult;
  }

  async purgeExpired(now = new Date()): Promise<number> {
    return (await this.repo.delete({ expiresAt: LessThanOrEqual(now) })).affected ?? 0;
  }
}
