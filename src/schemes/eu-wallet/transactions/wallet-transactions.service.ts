import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DataSource, In, LessThanOrEqual, MoreThan, Repository } from 'typeorm';
import { SecretBox } from '../../../common/crypto/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { ExclusiveJobs } from '../../../database/exclusive-jobs.js';
import type { WalletCheckCode } from '@identity-broker/eu-wallet';
import type { IdentityVerification } from '../../../broker/spi/identity-assurance/identity-verification.js';
import { WalletTransactionEntity } from './wallet-transaction.entity.js';
import type { WalletFlow } from '../wallet-paths.js';
import { walletConfig } from '../config/wallet-config.js';

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
  /** The broker's pending-redirect state for the same-device return (GET /its/eid/callback); same device only. */
  returnState?: string;
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
  /** What `verified_claims` may state of it (wallet-verification.ts); absent in results sealed before it existed. */
  verification?: IdentityVerification;
}

/** The two transactions of one try, one per link. */
export interface WalletAttempt {
  sameDevice: WalletTransactionEntity;
  crossDevice: WalletTransactionEntity;
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

  /**
   * One try of a sign-in: a transaction per link, each with its own nonce, state and response key, its flow fixed
   * here. Whoever fetches a request later learns which flow it is; nobody can change it.
   */
  async create(interactionUid: string, clientId: string, requests: Record<WalletFlow, WalletRequestData>, now = new Date()): Promise<WalletAttempt> {
    const attempt = randomBytes(16).toString('base64url');
    const expiresAt = new Date(now.getTime() + walletConfig(this.config).requestTtlSeconds * 1000);
    const row = (flow: WalletFlow) => {
      const id = randomBytes(24).toString('base64url');
      return this.repo.create({
        id,
        interactionUid,
        clientId,
        status: 'created',
        flow,
        attempt,
        requestSealed: this.secretBox.encrypt(JSON.stringify(requests[flow]), requestContext(id)),
        resultSealed: null,
        failure: null,
        failures: 0,
        responseCodeHash: null,
        expiresAt,
      });
    };
    const pair = { sameDevice: row('same_device'), crossDevice: row('cross_device') };
    await this.repo.insert([pair.sameDevice, pair.crossDevice]);
    return pair;
  }

  /** A live transaction by its public id (unknown and expired ones alike: undefined). */
  async live(id: string, now = new Date()): Promise<WalletTransactionEntity | undefined> {
    if (!/^[A-Za-z0-9_-]{32}$/.test(id)) return undefined;
    const row = await this.repo.findOneBy({ id });
    return row && row.expiresAt > now ? row : undefined;
  }

  /** How many tries the interaction has made (two transactions each), expired ones not yet purged included. */
  async tries(interactionUid: string): Promise<number> {
    return Math.ceil((await this.repo.countBy({ interactionUid })) / 2);
  }

  /** The interaction's newest try (its two transactions), if any. */
  async currentAttempt(interactionUid: string): Promise<WalletAttempt | undefined> {
    const newest = await this.repo.find({ where: { interactionUid }, order: { createdAt: 'DESC' }, take: 2 });
    const sameDevice = newest.find((row) => row.flow === 'same_device' && row.attempt === newest[0]?.attempt);
    const crossDevice = newest.find((row) => row.flow === 'cross_device' && row.attempt === newest[0]?.attempt);
    return sameDevice && crossDevice ? { sameDevice, crossDevice } : undefined;
  }

  request(row: WalletTransactionEntity): WalletRequestData {
    return JSON.parse(this.secretBox.decryptText(row.requestSealed, requestContext(row.id))) as WalletRequestData;
  }

  /** A wallet fetched the request object (again, as often as it likes while open): the page says a wallet connected. */
  async requestFetched(id: string, now = new Date()): Promise<boolean> {
    const result = await this.repo.update({ id, status: In(OPEN), expiresAt: MoreThan(now) }, { status: 'request_fetched' });
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
      {
        status: 'responded',
        resultSealed: this.secretBox.encrypt(JSON.stringify(result), resultContext(id)),
        responseCodeHash: responseCode ? hashOf(responseCode).toString('base64url') : null,
      },
    );
    return (update.affected ?? 0) === 1 ? { taken: true, responseCode } : { taken: false };
  }

  /**
   * A refused answer or a wallet's error, noted for the person's page. It does not close the transaction: an answer
   * is not authenticated until its presentation verifies, so whoever saw the request could post it, and the real
   * wallet must still be able to answer after it.
   */
  async noteRefusal(id: string, failure: WalletCheckCode | string, now = new Date()): Promise<boolean> {
    const update = await this.repo
      .createQueryBuilder()
      .update()
      .set({ failure: failure.slice(0, 64), failures: () => 'failures + 1' })
      .where({ id, status: In(OPEN), expiresAt: MoreThan(now) })
      .execute();
    return (update.affected ?? 0) === 1;
  }

  /** The person asked for a fresh request (or one link's answer was taken): the try's open transactions close. */
  async close(attempt: string): Promise<void> {
    await this.repo.update({ attempt, status: In(OPEN) }, { status: 'failed', failure: 'closed' });
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
    // The other link of the try takes no answer any more: its sign-in is over.
    await this.close(row.attempt);
    return JSON.parse(this.secretBox.decryptText(row.resultSealed, resultContext(row.id))) as WalletResult;
  }

  async purgeExpired(now = new Date()): Promise<number> {
    return (await this.repo.delete({ expiresAt: LessThanOrEqual(now) })).affected ?? 0;
  }
}
