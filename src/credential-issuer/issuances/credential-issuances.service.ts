import { Inject, Injectable } from '@nestjs/common';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { DataSource, type EntityManager, LessThanOrEqual, Repository } from 'typeorm';
import { Clock } from '../../common/clock.js';
import { constantTimeEqual, sha256Hex } from '../../common/crypto/constant-time.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { invalidGrant, invalidToken } from '../credential-issuer.errors.js';
import { revocationHandle } from '../revocation/revocation-handle.js';
import { CredentialIssuanceEntity } from './credential-issuance.entity.js';
import { offerValues, type OfferValues } from './offer-values.js';

/** Wrong transaction codes an offer survives; the next one burns it (the person asks for a new offer). */
export const MAX_TX_CODE_FAILURES = 5;
const ACCESS_TOKEN_SECONDS = 300;
const secret = () => randomBytes(32).toString('base64url');
const txCodeHash = (issuanceId: string, txCode: string) => sha256Hex(`${issuanceId}:${txCode}`);

/** What the person is shown: the offer's handle and codes are kept only as hashes (offer-values.ts derives them again). */
export interface NewOffer {
  issuanceId: string;
  offerHandle: string;
  preAuthorizedCode: string;
  txCode: string;
  revocationHandle: string;
  expiresAt: Date;
}

/** The access token a redeemed offer gave, as the credential endpoint needs it. */
export interface RedeemedOffer {
  issuanceId: string;
  recordId: string;
  jkt: string;
  /** The person's revocation link stands for this hash (the status list rows of what is issued carry it). */
  revocationHandleHash: string;
}

/**
 * The life of one offer: shown, redeemed once (pre-authorized code and transaction code, OpenID4VCI 1.0 §6.1) for an
 * access token bound to the wallet's DPoP key, used once to issue. Every change of state is one conditional UPDATE,
 * so two wallets racing with the same code get one token between them, and a token issues one batch. The library
 * leaves all of this to its caller: it keeps no state.
 */
@Injectable()
export class CredentialIssuancesService {
  private readonly repo: Repository<CredentialIssuanceEntity>;

  constructor(
    dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.repo = dataSource.getRepository(CredentialIssuanceEntity);
  }

  /**
   * The verification's offer (OpenID4VCI 1.0 §4.1): the one already shown, while it can still be redeemed, so that the
   * broker page and the app's result screen show the same link and transaction code and neither withdraws the other;
   * otherwise a new one (the previous was redeemed, burnt, has expired, or was made under a cookie key no longer
   * current), which withdraws any older offer of the verification not yet redeemed. Single use and expiry stay the
   * offer's own: showing it again extends nothing. Undefined only when another caller's offer, made in between, could
   * not be shown (its values derive from a key this instance does not hold).
   */
  async offer(recordId: string, clientId: string): Promise<NewOffer | undefined> {
    return this.repo.manager.transaction(async (tx) => {
      const now = this.clock.now();
      const live = await this.liveRowOf(tx, recordId, now);
      const shown = live ? this.shownAgain(live) : undefined;
      if (shown) return shown;
      // Only offers that cannot be shown make way: expired ones, and a live one derived with a retired key. A live
      // offer a concurrent caller committed after our read is kept (this insert then yields to it, below): burning
      // it would hand the two callers different offers, the first one dead.
      await tx
        .createQueryBuilder()
        .update(CredentialIssuanceEntity)
        .set({ state: 'burnt' })
        .where('record_id = :recordId AND state = :offered AND (offer_expires_at <= :now OR id = :unshowable)', {
          recordId,
          offered: 'offered',
          now,
          unshowable: live?.id ?? null,
        })
        .execute();
      const id = randomUUID();
      const values = offerValues(this.config.cookieKeys[0], id);
      const expiresAt = new Date(now.getTime() + this.config.credentialIssuer.offerTtlSeconds * 1000);
      // The partial unique index on live offers (migration 1700000000258): a concurrent caller's insert makes ours a no-op.
      const inserted = (await tx.query(
        `INSERT INTO credential_issuances (id, record_id, client_id, state, offer_handle_hash, pre_authorized_code_hash,
           tx_code_hash, revocation_handle_hash, offer_expires_at, delete_after)
         VALUES ($1, $2, $3, 'offered', $4, $5, $6, $7, $8, $8)
         ON CONFLICT DO NOTHING RETURNING id`,
        [
          id,
          recordId,
          clientId,
          sha256Hex(values.offerHandle),
          sha256Hex(this.preAuthorizedCodeOf(values.offerHandle)),
          txCodeHash(id, values.txCode),
          sha256Hex(values.revocationHandle),
          expiresAt,
        ],
      )) as unknown[];
      return inserted.length === 1 ? this.shownOffer(id, values, expiresAt) : this.liveOfferOf(tx, recordId, now);
    });
  }

  /** The verification's live offer, shown again: its values derived once more and checked against the stored hashes. */
  private async liveOfferOf(tx: EntityManager, recordId: string, now: Date): Promise<NewOffer | undefined> {
    const row = await this.liveRowOf(tx, recordId, now);
    return row ? this.shownAgain(row) : undefined;
  }

  private liveRowOf(tx: EntityManager, recordId: string, now: Date): Promise<CredentialIssuanceEntity | null> {
    return tx
      .getRepository(CredentialIssuanceEntity)
      .createQueryBuilder('i')
      .where('i.record_id = :recordId AND i.state = :state AND i.offer_expires_at > :now', { recordId, state: 'offered', now })
      .getOne();
  }

  /** A live offer's values derived again; undefined when they no longer match its hashes (a retired key). */
  private shownAgain(row: CredentialIssuanceEntity): NewOffer | undefined {
    const values = offerValues(this.config.cookieKeys[0], row.id);
    const derivable =
      sha256Hex(values.offerHandle) === row.offerHandleHash &&
      txCodeHash(row.id, values.txCode) === row.txCodeHash &&
      sha256Hex(values.revocationHandle) === row.revocationHandleHash;
    return derivable ? this.shownOffer(row.id, values, row.offerExpiresAt) : undefined;
  }

  private shownOffer(issuanceId: string, values: OfferValues, expiresAt: Date): NewOffer {
    return { issuanceId, ...values, preAuthorizedCode: this.preAuthorizedCodeOf(values.offerHandle), expiresAt };
  }

  /**
   * The pre-authorized code an offer carries, derived from its handle: the credential_offer_uri answers it without
   * the database holding it in a form that could be read back.
   */
  preAuthorizedCodeOf(offerHandle: string): string {
    return createHmac('sha256', this.config.cookieKeys[0]).update(`vci-pre-authorized-code:${offerHandle}`).digest('base64url');
  }

  /** The offer behind a credential_offer_uri, while it can still be redeemed (a redeemed or burnt offer is gone). */
  async liveOffer(offerHandle: string): Promise<CredentialIssuanceEntity | undefined> {
    const row = await this.repo.findOneBy({ offerHandleHash: sha256Hex(offerHandle) });
    return row && row.state === 'offered' && row.offerExpiresAt > this.clock.now() ? row : undefined;
  }

  /**
   * The token request of the pre-authorized code flow. A wrong transaction code counts against the offer, and the
   * MAX_TX_CODE_FAILURES-th burns it, so that the right code after many wrong ones finds nothing left to redeem.
   * `authenticated` runs once both codes are right, before the redemption (the DPoP proof's single use: a replayed
   * proof is refused without spending the offer, and a caller without the codes leaves nothing behind).
   */
  async redeem(
    preAuthorizedCode: string,
    txCode: string | undefined,
    jkt: string,
    authenticated: () => Promise<void>,
  ): Promise<{ accessToken: string; expiresIn: number }> {
    const now = this.clock.now();
    const row = await this.repo.findOneBy({ preAuthorizedCodeHash: sha256Hex(preAuthorizedCode) });
    if (!row || row.state !== 'offered' || row.offerExpiresAt <= now) throw invalidGrant('the pre-authorized code is unknown, expired or already used');
    if (txCode === undefined || !constantTimeEqual(txCodeHash(row.id, txCode), row.txCodeHash)) {
      await this.countFailure(row.id);
      throw invalidGrant('the transaction code is wrong');
    }
    await authenticated();
    const accessToken = secret();
    const expiresIn = ACCESS_TOKEN_SECONDS;
    const result = await this.repo
      .createQueryBuilder()
      .update()
      .set({
        state: 'redeemed',
        accessTokenHash: sha256Hex(accessToken),
        accessTokenJkt: jkt,
        accessTokenExpiresAt: new Date(now.getTime() + expiresIn * 1000),
      })
      .where('id = :id AND state = :state AND tx_code_failures < :max AND offer_expires_at > :now', {
        id: row.id,
        state: 'offered',
        max: MAX_TX_CODE_FAILURES,
        now,
      })
      .execute();
    if (result.affected !== 1) throw invalidGrant('the pre-authorized code is unknown, expired or already used');
    return { accessToken, expiresIn };
  }

  /**
   * The authorization code flow's token (the code already exchanged once, with its PKCE verifier): an issuance that
   * starts redeemed, with no offer to show (its offer values are random and never leave the service).
   */
  async redeemAuthorization(recordId: string, clientId: string, jkt: string): Promise<{ accessToken: string; expiresIn: number }> {
    const now = this.clock.now();
    const accessToken = secret();
    await this.repo.insert({
      id: randomUUID(),
      recordId,
      clientId,
      state: 'redeemed',
      offerHandleHash: sha256Hex(secret()),
      preAuthorizedCodeHash: sha256Hex(secret()),
      txCodeHash: sha256Hex(secret()),
      revocationHandleHash: revocationHandle().hash,
      offerExpiresAt: now,
      accessTokenHash: sha256Hex(accessToken),
      accessTokenJkt: jkt,
      accessTokenExpiresAt: new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000),
      deleteAfter: new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000),
    });
    return { accessToken, expiresIn: ACCESS_TOKEN_SECONDS };
  }

  private async countFailure(id: string): Promise<void> {
    await this.repo.query(
      `UPDATE credential_issuances SET tx_code_failures = tx_code_failures + 1,
         state = CASE WHEN tx_code_failures + 1 >= $2 THEN 'burnt' ELSE state END
       WHERE id = $1 AND state = 'offered'`,
      [id, MAX_TX_CODE_FAILURES],
    );
  }

  /** The redeemed offer an access token stands for, when that token is live and bound to the proven DPoP key. */
  async tokenHolder(accessToken: string, jkt: string): Promise<RedeemedOffer> {
    const row = await this.repo.findOneBy({ accessTokenHash: sha256Hex(accessToken) });
    if (!row || row.state !== 'redeemed' || !row.accessTokenExpiresAt || row.accessTokenExpiresAt <= this.clock.now())
      throw invalidToken('the access token is unknown, expired or already used');
    // RFC 9449 §7.1: the proof must be made with the key the token was bound to.
    if (!row.accessTokenJkt || !constantTimeEqual(row.accessTokenJkt, jkt)) throw invalidToken('the access token is bound to another key');
    return { issuanceId: row.id, recordId: row.recordId, jkt: row.accessTokenJkt, revocationHandleHash: row.revocationHandleHash };
  }

  /** Spends the token (once) for `count` credentials valid until `lastExpiry`, in the caller's transaction. */
  async markIssued(manager: EntityManager, issuanceId: string, count: number, lastExpiry: Date): Promise<void> {
    const result = await manager
      .getRepository(CredentialIssuanceEntity)
      .createQueryBuilder()
      .update()
      .set({ state: 'issued', issuedCount: count, issuedAt: this.clock.now(), deleteAfter: lastExpiry, accessTokenHash: null })
      .where('id = :id AND state = :state', { id: issuanceId, state: 'redeemed' })
      .execute();
    if (result.affected !== 1) throw invalidToken('the access token is unknown, expired or already used');
  }

  /** The issuance a person's revocation link stands for. */
  async byRevocationHandle(handle: string): Promise<CredentialIssuanceEntity | undefined> {
    return (await this.repo.findOneBy({ revocationHandleHash: sha256Hex(handle) })) ?? undefined;
  }

  /**
   * Whether the person's revocation handle (its SHA-256) stands for an offer not yet issued (shown, or redeemed and not
   * yet used): the revocation page can withdraw it before the wallet took anything.
   */
  async hasUnissuedOffer(revocationHandleHash: string): Promise<boolean> {
    const row = await this.repo
      .createQueryBuilder('i')
      .select('i.id')
      .where('i.revocation_handle_hash = :hash AND i.state IN (:...states)', { hash: revocationHandleHash, states: ['offered', 'redeemed'] })
      .getOne();
    return row !== null;
  }

  /**
   * The person revoked before anything was issued: the offer is burnt, so that neither its pre-authorized code
   * (token endpoint) nor a token already given for it (credential endpoint) is of use any more. One conditional UPDATE:
   * an issuance committed first is left to the status rows' revocation (credential-status.service.ts). Answers whether
   * an offer was burnt.
   */
  async burnUnissuedOffer(revocationHandleHash: string): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .update()
      .set({ state: 'burnt', accessTokenHash: null })
      .where('revocation_handle_hash = :hash AND state IN (:...states)', { hash: revocationHandleHash, states: ['offered', 'redeemed'] })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Offers never redeemed and issuances whose credentials have all expired. */
  async purge(): Promise<number> {
    const result = await this.repo.delete({ deleteAfter: LessThanOrEqual(this.clock.now()) });
    return result.affected ?? 0;
  }
}
