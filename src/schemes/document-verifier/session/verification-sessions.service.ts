import { Inject, Injectable } from '@nestjs/common';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { DataSource, type EntityManager, In, MoreThan, Repository } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import { sha256Hex } from '../../../common/crypto/constant-time.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { verifierConfig } from '../config/verifier-config.js';
import { sessionExpired, sessionNotFound, wrongState } from '../verifier.errors.js';
import { type SessionRequirements, type SessionState, VerificationSessionEntity } from './verification-session.entity.js';

const OPEN_STATES: SessionState[] = ['created', 'opened', 'chip_received', 'face_received'];

/**
 * Verification sessions and their state machine. Every change is one conditional UPDATE on one row
 * (expected state and not expired), so two instances can never both move a session, and a refused step
 * changes nothing.
 */
@Injectable()
export class VerificationSessionsService {
  private readonly repo: Repository<VerificationSessionEntity>;

  constructor(
    dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.repo = dataSource.getRepository(VerificationSessionEntity);
  }

  async create(clientId: string, interactionUid: string, requirements: SessionRequirements): Promise<{ session: VerificationSessionEntity; qrToken: string }> {
    const id = randomUUID();
    const qrToken = this.qrTokenOf(id);
    const session = await this.repo.save(
      this.repo.create({
        id,
        clientId,
        interactionUid,
        qrTokenSha256: sha256Hex(qrToken),
        state: 'created',
        requirements,
        expiresAt: new Date(this.clock.now().getTime() + verifierConfig(this.config).sessionTtlSeconds * 1000),
      }),
    );
    return { session, qrToken };
  }

  /** The newest live session of a broker interaction (a reload of the page reuses it). */
  async forInteraction(interactionUid: string): Promise<VerificationSessionEntity | undefined> {
    const rows = await this.repo.find({ where: { interactionUid }, order: { createdAt: 'DESC' }, take: 1 });
    return rows[0] ? this.expireIfDue(rows[0]) : undefined;
  }

  /**
   * The QR token of a session no phone has opened yet, the same on every showing: a reload (or the page's
   * no-script refresh) never invalidates a code the person is scanning. Only its hash is stored, so it is
   * derived from the session id under the cookie key (secret, shared by every instance); a session whose
   * stored hash no longer matches (the key rotated) gets the newly derived token.
   */
  async qrToken(session: VerificationSessionEntity): Promise<{ session: VerificationSessionEntity; qrToken: string }> {
    const qrToken = this.qrTokenOf(session.id);
    if (session.qrTokenSha256 === sha256Hex(qrToken)) return { session, qrToken };
    return { session: await this.update(session, ['created'], { qrTokenSha256: sha256Hex(qrToken) }), qrToken };
  }

  private qrTokenOf(sessionId: string): string {
    return createHmac('sha256', this.config.cookieKeys[0]).update(`verifier-qr:${sessionId}`).digest('base64url').slice(0, 32);
  }

  /** The app exchanges the QR token (single use) for its own bearer token. */
  async open(qrToken: string): Promise<{ session: VerificationSessionEntity; appToken: string }> {
    const session = await this.repo.findOneBy({ qrTokenSha256: sha256Hex(qrToken) });
    if (!session) throw sessionNotFound();
    const appToken = randomBytes(32).toString('base64url');
    const opened = await this.transition(session, ['created'], 'opened', { appTokenSha256: sha256Hex(appToken) });
    return { session: opened, appToken };
  }

  async byAppToken(appToken: string): Promise<VerificationSessionEntity> {
    const session = await this.repo.findOneBy({ appTokenSha256: sha256Hex(appToken) });
    if (!session) throw sessionNotFound();
    const current = await this.expireIfDue(session);
    if (current.state === 'expired') throw sessionExpired();
    return current;
  }

  /** Updates fields without changing state, only while the session is in one of `states`. */
  async update(session: VerificationSessionEntity, states: SessionState[], changes: Partial<VerificationSessionEntity>): Promise<VerificationSessionEntity> {
    return this.transition(session, states, undefined, changes);
  }

  async transition(
    session: VerificationSessionEntity,
    from: SessionState[],
    to: SessionState | undefined,
    changes: Partial<VerificationSessionEntity> = {},
    manager?: EntityManager,
  ): Promise<VerificationSessionEntity> {
    const now = this.clock.now();
    const repo = manager?.getRepository(VerificationSessionEntity) ?? this.repo;
    const result = await repo.update({ id: session.id, state: In(from), expiresAt: MoreThan(now) }, { ...changes, ...(to ? { state: to } : {}) } as never);
    if (result.affected !== 1) {
      const current = await repo.findOneByOrFail({ id: session.id });
      if (current.expiresAt <= now && OPEN_STATES.includes(current.state)) {
        await repo.update({ id: current.id, state: In(OPEN_STATES) }, { state: 'expired' });
        throw sessionExpired();
      }
      throw wrongState(current.state, from);
    }
    return repo.findOneByOrFail({ id: session.id });
  }

  /**
   * Spends the session's liveness challenge `challengeId` (one conditional UPDATE: the session is at the face
   * step, not expired, and still holds that very challenge). False when another upload spent it first, so two
   * concurrent uploads of one challenge never both get face work.
   */
  async spendLivenessChallenge(session: VerificationSessionEntity, challengeId: string): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .update()
      .set({ livenessChallenge: null })
      .where("id = :id AND state = 'chip_received' AND expires_at > :now AND liveness_challenge->>'id' = :challengeId", {
        id: session.id,
        now: this.clock.now(),
        challengeId,
      })
      .execute();
    return result.affected === 1;
  }

  /** Refuses a step that does not fit the session's state (read fresh by byAppToken), changing nothing. */
  assertState(session: VerificationSessionEntity, states: SessionState[]): void {
    if (!states.includes(session.state)) throw wrongState(session.state, states);
  }

  async cancel(session: VerificationSessionEntity): Promise<VerificationSessionEntity> {
    return this.transition(session, OPEN_STATES, 'cancelled', { chipSealed: null, documentFaceSealed: null, livenessChallenge: null, caChallengeSealed: null });
  }

  private async expireIfDue(session: VerificationSessionEntity): Promise<VerificationSessionEntity> {
    if (OPEN_STATES.includes(session.state) && session.expiresAt <= this.clock.now()) {
      await this.repo.update(
        { id: session.id, state: In(OPEN_STATES) },
        { state: 'expired', chipSealed: null, documentFaceSealed: null, livenessChallenge: null, caChallengeSealed: null },
      );
      return { ...session, state: 'expired', chipSealed: null, documentFaceSealed: null, livenessChallenge: null, caChallengeSealed: null };
    }
    return session;
  }

  /** Sessions hold evidence only while they run; a day after their end they are removed entirely. */
  async purge(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - 86400_000);
    const result = await this.repo.createQueryBuilder().delete().where('expires_at < :cutoff', { cutoff }).execute();
    return result.affected ?? 0;
  }
}
