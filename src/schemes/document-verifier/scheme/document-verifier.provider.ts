import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { verifierConfig } from '../config/verifier-config.js';
import { ACR_EIDAS_HIGH, ACR_REQUEST_HIGH } from '../../../broker/spi/acr.js';
import { VERIFIER_STEP_NAMES, VERIFIER_STEPS } from './progress-steps.js';
import { EidScheme, type EidProvider, type EidRequest, type EidStep, type ProgressStep, type SupportsAcr } from '../../../broker/spi/eid-provider.js';
import type { Messages } from '../../../i18n/messages.js';
import type { VerificationRecordClaims } from '../../../broker/spi/document-evidence/verification-record.js';
import { VerificationRecordsService } from '../records/verification-records.service.js';
import { recordVerification } from './record-verification.js';
import { IDENTITY_DOCUMENT_OFFER } from '../../../broker/spi/identity-assurance/identity-document-evidence.js';
import type { StatesVerification } from '../../../broker/spi/identity-assurance/identity-verification.js';
import type { SessionRequirements, VerificationSessionEntity } from '../session/verification-session.entity.js';
import { VerificationSessionsService } from '../session/verification-sessions.service.js';

const ALL_KINDS: SessionRequirements['documentKinds'] = ['P', 'I', 'D', 'V'];

/**
 * The document verifier as an eID scheme: opens a verification session, shows the QR code / deep link
 * for the app, and when the app has finished turns the sealed verification record into the brokered
 * identity (claims of spec 2.1; acr eIDAS high only when asked for and earned).
 */
/** The document verifier's scheme id (merchants list it in eid_schemes; document-verified subjects carry it). */
export const DOCUMENT_VERIFIER_ID = 'document-verifier';

@Injectable()
@EidScheme({ order: 10 })
export class DocumentVerifierProvider implements EidProvider, SupportsAcr, StatesVerification {
  readonly id = DOCUMENT_VERIFIER_ID;
  readonly verificationOffer = IDENTITY_DOCUMENT_OFFER;
  readonly testOnly = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: VerificationSessionsService,
    private readonly records: VerificationRecordsService,
  ) {}

  displayName(messages: Messages): string {
    return messages.documentVerifierName;
  }

  /** Chip, clone detection, liveness and face match can reach eIDAS high (spec 5.8). */
  supportsAcr(acr: string): boolean {
    return acr === ACR_REQUEST_HIGH;
  }

  /**
   * A reload of the broker page must not orphan a session the phone is already working on: a live session
   * of this interaction is reused (with the same QR token while no phone has opened it yet).
   */
  async start(request: EidRequest): Promise<EidStep> {
    const existing = await this.sessions.forInteraction(request.interactionUid);
    if (existing && ['created', 'opened', 'chip_received', 'face_received'].includes(existing.state)) return this.waiting(request, existing);
    if (existing?.state === 'completed') return this.identified(existing);
    return this.create(request);
  }

  private async create(request: EidRequest): Promise<EidStep> {
    const b = request.bindingMessage;
    const { session, qrToken } = await this.sessions.create(request.clientId, request.interactionUid, {
      documentKinds: b?.documentKinds ?? ALL_KINDS,
      showDocumentList: b?.showDocumentList ?? !b?.documentKinds,
      transactionText: b?.transactionText,
      bindingText: b?.text,
      acrHigh: request.acrValues.includes(ACR_REQUEST_HIGH),
      scopes: request.scopes,
    });
    return this.waiting(request, session, qrToken);
  }

  /** The waiting page's continue button (pressed by its script when the session ends). */
  async handle(request: EidRequest): Promise<EidStep> {
    const session = await this.sessions.forInteraction(request.interactionUid);
    if (!session) return this.create(request);
    switch (session.state) {
      case 'completed':
        return this.identified(session);
      case 'cancelled':
        return { kind: 'failed', error: 'access_denied', description: 'the user cancelled the document verification' };
      case 'expired':
        return { kind: 'failed', error: 'access_denied', description: 'the document verification session expired' };
      default:
        return this.waiting(request, session);
    }
  }

  private async identified(session: VerificationSessionEntity): Promise<EidStep> {
    const record = session.recordId ? await this.records.getClaims(session.recordId) : undefined;
    if (!record) return { kind: 'failed', error: 'access_denied', description: 'the verification record is no longer available' };
    return {
      kind: 'identified',
      identity: {
        subject: record.subject,
        claims: record.claims,
        birthDate: record.birthDate,
        acr: record.eidasHigh ? ACR_EIDAS_HIGH : undefined,
        amr: amrOf(record),
        authTime: new Date(record.completedAt),
        evidenceRef: session.recordId!,
        verification: recordVerification(session.recordId!, record),
      },
    };
  }

  /** The QR code and link only while no phone has opened the session (the same code on every showing). */
  private async waiting(request: EidRequest, session: VerificationSessionEntity, qrToken?: string): Promise<EidStep> {
    const token = qrToken ?? (session.state === 'created' ? (await this.sessions.qrToken(session)).qrToken : undefined);
    const link = token ? this.deepLink(token) : '';
    return {
      kind: 'waiting',
      title: request.messages.documentVerifierName,
      qrSvg: link ? await (await import('qrcode')).default.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, width: 240 }) : '',
      link,
      statusUrl: `/its/interaction/${request.interactionUid}/verifier-status`,
      state: session.state,
      progress: progressOf(session.state),
      // The ID app opening the session is news on another device only: on the phone itself the person opened it.
      steps: VERIFIER_STEPS.map((id) => ({ id, label: VERIFIER_STEP_NAMES[request.locale][id], onDesktopOnly: id === 'phone_connected' })),
      app: verifierConfig(this.config).app,
    };
  }

  /** The app build of this environment (spec 1.6), with the session token and the API to talk to. */
  private deepLink(qrToken: string): string {
    const url = new URL(verifierConfig(this.config).appLink);
    url.searchParams.set('session', qrToken);
    url.searchParams.set('api', `${this.config.baseUrl}/app/v1`);
    return url.toString();
  }
}

/** The session's state as the waiting page's steps (the phone reads the chip, then checks the face). */
export function progressOf(state: string): ProgressStep {
  switch (state) {
    case 'created':
      return 'waiting';
    case 'opened':
      return 'phone_connected';
    case 'chip_received':
      return 'document_read';
    case 'face_received':
      return 'face_checked';
    case 'completed':
      return 'done';
    default:
      return 'stopped';
  }
}

/**
 * Authentication methods actually used (RFC 8176): sc, the chip was read; hwk, it proved possession of its
 * own key (Active or Chip Authentication, so it is no clone); face, a face step ran (not after a failed chip).
 */
function amrOf(record: VerificationRecordClaims): string[] {
  return ['sc', ...(record.cloneDetectionPassed ? ['hwk'] : []), ...(record.faceStepRan ? ['face'] : [])];
}
