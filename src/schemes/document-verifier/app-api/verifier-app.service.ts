import { Inject, Injectable, Optional } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import { SecretBox } from '../../../common/crypto/secret-box.js';
import { Telemetry } from '../../../common/telemetry/telemetry.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { verifierConfig } from '../config/verifier-config.js';
import { transactionSubject, verifiedDocumentSubject } from '../../../broker/spi/subjects/document-subject.js';
import { birthDateFromDg11, birthDateFromMrz } from '../../../verifier-claims/dates.js';
import { mapVerifierClaims } from '../../../verifier-claims/map-verifier-claims.js';
import type { ChipAuthTerminalState } from '@identity-broker/icao9303';
import { VerificationRecordsService } from '../records/verification-records.service.js';
import type { SessionState, VerificationSessionEntity } from '../session/verification-session.entity.js';
import { VerificationSessionsService } from '../session/verification-sessions.service.js';
import { ChipVerificationService, type ChipEvidence } from '../verification/chip-verification.service.js';
import { DocumentFaceTemplates } from '../verification/document-face-templates.js';
import { FaceVerificationService, type FaceOutcome } from '../verification/face-verification.service.js';
import { LIVENESS_RULES, randomDirections } from '../verification/liveness-rules.js';
import { chipFailureVerdict, decideVerdict, type VerificationVerdict } from '../verification/outcome.js';
import type { UiLocale } from '../../../i18n/locales.js';
import {
  CaptureRetryError,
  challengeMissing,
  chipAuthChallengeMissing,
  livenessChallengeMismatch,
  livenessExpired,
  livenessFramesRefused,
} from '../verifier.errors.js';
import type {
  CaChallengeDto,
  CaChallengeRequestDto,
  ChallengeDto,
  ChipResultDto,
  ChipUploadDto,
  FaceUploadDto,
  LivenessChallengeDto,
  OpenedSessionDto,
  OpenSessionDto,
  OutcomeDto,
  SessionStatusDto,
} from './dto/app-api.dto.js';
import { b64, dataGroups, framesOf, requirementsDto } from './app-uploads.js';

const chipContext = (id: string) => `verification-chip:${id}`;
const caContext = (id: string) => `verification-ca:${id}`;
/** Frames stamped slightly after the server's clock are accepted: phones' clocks drift. */
const CLOCK_SKEW_MS = 5000;

/** The steps the phone app drives, in order; each refuses to run out of order (state machine). */
@Injectable()
export class VerifierAppService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly sessions: VerificationSessionsService,
    private readonly chip: ChipVerificationService,
    private readonly face: FaceVerificationService,
    private readonly documentFaces: DocumentFaceTemplates,
    private readonly records: VerificationRecordsService,
    private readonly secretBox: SecretBox,
    private readonly clock: Clock,
    @Optional() private readonly telemetry?: Telemetry,
  ) {}

  async open(dto: OpenSessionDto): Promise<OpenedSessionDto> {
    const { session, appToken } = await this.sessions.open(dto.qr_token);
    return { session_token: appToken, expires_at: session.expiresAt.toISOString(), requirements: requirementsDto(session.requirements) };
  }

  status(session: VerificationSessionEntity): SessionStatusDto {
    return { state: session.state, expires_at: session.expiresAt.toISOString(), requirements: requirementsDto(session.requirements) };
  }

  /** A fresh challenge per session so that a recorded chip response cannot be replayed (9303-11 §6.1). */
  async activeAuthChallenge(session: VerificationSessionEntity): Promise<ChallengeDto> {
    const challenge = randomBytes(8).toString('hex');
    await this.sessions.update(session, ['opened'], { aaChallenge: challenge });
    return { challenge };
  }

  /**
   * The server is the Chip Authentication terminal (ICAO 9303-11 §6.2): it keeps the ephemeral private key and
   * the session keys (sealed in the session row), the app only relays the public key and the protected command.
   * A new challenge replaces the previous one; the chip step spends it.
   */
  async chipAuthChallenge(session: VerificationSessionEntity, dto: CaChallengeRequestDto): Promise<CaChallengeDto> {
    this.sessions.assertState(session, ['opened']);
    const challenge = this.chip.startChipAuthentication(b64(dto.dg14), dto.key_id);
    await this.sessions.update(session, ['opened'], {
      caChallengeSealed: this.secretBox.encrypt(JSON.stringify(challenge.secretState), caContext(session.id)),
    });
    return {
      terminal_public_key: Buffer.from(challenge.terminalPublicKey).toString('base64'),
      protected_command: Buffer.from(challenge.protectedCommand).toString('base64'),
      ...(challenge.keyId !== undefined ? { key_id: challenge.keyId } : {}),
    };
  }

  async uploadChip(session: VerificationSessionEntity, dto: ChipUploadDto): Promise<ChipResultDto> {
    this.sessions.assertState(session, ['opened']);
    if (dto.active_authentication && !session.aaChallenge) throw challengeMissing();
    if (dto.chip_authentication && !session.caChallengeSealed) throw chipAuthChallengeMissing();
    const caState =
      dto.chip_authentication && session.caChallengeSealed
        ? (JSON.parse(this.secretBox.decryptText(session.caChallengeSealed, caContext(session.id))) as ChipAuthTerminalState)
        : undefined;
    const evidence = await this.chip.verify(
      {
        sod: b64(dto.sod),
        dataGroups: dataGroups(dto.data_groups),
        activeAuthSignature: dto.active_authentication && b64(dto.active_authentication.signature),
        chipAuthentication: dto.chip_authentication && caState && { state: caState, responseApdu: b64(dto.chip_authentication.response_apdu) },
      },
      session.aaChallenge ? Buffer.from(session.aaChallenge, 'hex') : undefined,
      session.requirements.documentKinds,
      this.clock.now(),
    );
    // A chip that failed (passive authentication, clone detection, document kind or expiry) ends the
    // verification here as fail: the face step is never reached, so no face work is spent on a document
    // that cannot pass. The challenges are spent whatever the outcome: one response per challenge.
    if (evidence.explanations.length > 0) {
      await this.complete(session, ['opened'], evidence, undefined, { aaChallenge: null, caChallengeSealed: null });
      return { received: true, next: 'outcome' };
    }
    await this.sessions.transition(session, ['opened'], 'chip_received', {
      aaChallenge: null,
      caChallengeSealed: null,
      chipSealed: this.secretBox.encrypt(JSON.stringify(evidence), chipContext(session.id)),
    });
    // While the person turns to the selfie, the chip photo's template is made (when this instance's face queue is idle).
    this.documentFaces.precompute(session.id, b64(evidence.facePhoto));
    return { received: true, next: 'face' };
  }

  /**
   * A fresh active challenge (a new one replaces the last): one frame facing the camera, then LIVENESS_RULES.steps
   * movements drawn with a CSPRNG, each answered by a burst of frames, all within the liveness window.
   */
  async livenessChallenge(session: VerificationSessionEntity): Promise<LivenessChallengeDto> {
    const now = this.clock.now();
    const challenge = {
      id: randomUUID(),
      directions: randomDirections(),
      issuedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + verifierConfig(this.config).livenessWindowSeconds * 1000).toISOString(),
    };
    await this.sessions.update(session, ['chip_received'], { livenessChallenge: challenge });
    return {
      challenge_id: challenge.id,
      steps: ['center', ...challenge.directions],
      burst_frames: { min: LIVENESS_RULES.minBurstFrames, max: LIVENESS_RULES.maxBurstFrames },
      expires_at: challenge.expiresAt,
    };
  }

  /**
   * The challenge is answered once: the upload spends it (whatever the outcome, a capture retry included) before
   * any face work, so a replayed upload, one of another session or a second answer is refused with 409.
   */
  async uploadFace(session: VerificationSessionEntity, dto: FaceUploadDto, locale: UiLocale): Promise<OutcomeDto> {
    this.sessions.assertState(session, ['chip_received']);
    const challenge = session.livenessChallenge;
    if (!challenge?.directions)
      throw livenessChallengeMismatch('no liveness challenge is open for this session: it was answered already or never asked; ask for a new one');
    if (challenge.id !== dto.challenge_id) throw livenessChallengeMismatch('the challenge_id is not the open liveness challenge of this session');
    const frames = framesOf(dto, challenge.directions.length);
    const now = this.clock.now();
    const issued = Date.parse(challenge.issuedAt);
    if (now.getTime() > Date.parse(challenge.expiresAt)) throw livenessExpired();
    let previous = -Infinity;
    for (const frame of dto.frames) {
      const at = Date.parse(frame.captured_at);
      if (at < issued - CLOCK_SKEW_MS || at > now.getTime() + CLOCK_SKEW_MS) throw livenessExpired();
      // Frames come in capture order: a burst is a movement in time, not a set of pictures.
      if (at < previous) throw livenessFramesRefused('frames must be in capture order (captured_at never decreasing)');
      previous = at;
    }
    const chip = JSON.parse(this.secretBox.decryptText(session.chipSealed!, chipContext(session.id))) as ChipEvidence;
    const face = await this.face
      .evaluate(
        async () => (await this.documentFaces.templateFor(session, b64(chip.facePhoto))).embedding,
        challenge.directions,
        frames,
        async () => {
          if (!(await this.sessions.spendLivenessChallenge(session, challenge.id)))
            throw livenessChallengeMismatch('the liveness challenge was answered already');
        },
      )
      .catch((e: unknown) => {
        // The person holding the phone reads why; the phone's Accept-Language says in which language.
        throw e instanceof CaptureRetryError ? e.inLocale(locale) : e;
      });
    const verdict = decideVerdict(chip, face, session.requirements.acrHigh, verifierConfig(this.config).minFacematchLevelForHigh);
    await this.complete(session, ['chip_received'], chip, { face, verdict }, { livenessChallenge: null });
    return { state: 'completed', authentication_result: verdict.result, result_explanation: verdict.explanations, facematch_level: face.facematchLevel };
  }

  /**
   * Stores the sealed verification record and completes the session in one transaction. Without a face
   * step (the chip failed) the record has no selfie and the claims name only the chip as their source.
   */
  private async complete(
    session: VerificationSessionEntity,
    from: SessionState[],
    chip: ChipEvidence,
    faceStep: { face: FaceOutcome; verdict: VerificationVerdict } | undefined,
    clear: Partial<VerificationSessionEntity>,
  ): Promise<void> {
    const now = this.clock.now();
    const face = faceStep?.face;
    const verdict = faceStep?.verdict ?? chipFailureVerdict(chip);
    const facematchLevel = face?.facematchLevel ?? 0;
    const recordId = randomUUID();
    const claims = mapVerifierClaims(
      chip.holder,
      {
        result: verdict.result,
        explanations: verdict.explanations,
        facematchLevel,
        sources: ['SDK_NFC', ...(chip.cloneDetection === 'none' ? (['SDK_NFC_NO_CLONE_PROOF'] as const) : []), ...(face ? (['SDK_FACESCAN'] as const) : [])],
        authFilesUrl: `${this.config.baseUrl}/auth_files/fetch.html?tid=${recordId}`,
      },
      now,
    );
    const outcome = { ...verdict, facematchLevel, completedAt: now.toISOString() };
    await this.dataSource.transaction(async (tx) => {
      await this.records.store(
        recordId,
        {
          clientId: session.clientId,
          documentPhoto: chip.facePhoto,
          documentPhotoType: chip.facePhotoType,
          selfie: face && Buffer.from(face.selfie).toString('base64'),
          selfieEmbedding: face?.selfieEmbedding ?? [],
          claims,
          // Only a verified document has a stable subject and a birth date (age claims); a failed one gets a
          // random subject per transaction, so a forged DG1 never logs in as the document it names.
          ...(verdict.result === 'pass'
            ? {
                subject: verifiedDocumentSubject(this.config.subjectSecret, chip.holder.issuingState, chip.holder.documentNumber),
                birthDate:
                  (chip.holder.dg11?.fullDateOfBirth && birthDateFromDg11(chip.holder.dg11.fullDateOfBirth)) ||
                  birthDateFromMrz(chip.holder.mrzDateOfBirth, now),
              }
            : { subject: transactionSubject() }),
          result: verdict.result,
          explanations: verdict.explanations,
          facematchLevel,
          eidasHigh: verdict.eidasHigh,
          cloneDetectionPassed: chip.cloneDetectionPassed,
          cloneDetection: chip.cloneDetection,
          specimen: chip.specimen,
          completedAt: outcome.completedAt,
          failures: [...chip.failures, ...(face?.problems ?? [])],
          crl: chip.crl,
          warnings: chip.warnings,
          scopes: session.requirements.scopes,
        },
        tx,
      );
      // Liveness frames were only in memory; the chip evidence is dropped now that the record holds what is kept.
      await this.sessions.transition(session, from, 'completed', { ...clear, outcome, recordId, chipSealed: null, documentFaceSealed: null }, tx);
    });
    this.telemetry?.emit('verificationCompleted', verdict.result, verdict.explanations);
  }

  outcome(session: VerificationSessionEntity): OutcomeDto {
    const o = session.outcome;
    return o
      ? { state: session.state, authentication_result: o.result, result_explanation: o.explanations, facematch_level: o.facematchLevel }
      : { state: session.state };
  }

  async cancel(session: VerificationSessionEntity): Promise<OutcomeDto> {
    const cancelled = await this.sessions.cancel(session);
    return { state: cancelled.state };
  }
}
