import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { DocumentKind } from '../../../broker/spi/request/binding-message.js';

/** Architecture: created → opened → chip_received → face_received → completed; cancelled / expired from any open state. */
export const SESSION_STATES = ['created', 'opened', 'chip_received', 'face_received', 'completed', 'cancelled', 'expired'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

export interface SessionRequirements {
  documentKinds: DocumentKind[];
  showDocumentList: boolean;
  transactionText?: { type: 'text' | 'markdown'; content: string };
  bindingText?: string;
  /** The merchant asked for urn:svc:acrp:level:high. */
  acrHigh: boolean;
  /** The scopes of the authorization request, kept with the record so that evidence (auth-files) releases no more than the ID token did; absent in older sessions. */
  scopes?: string[];
}

export interface LivenessChallenge {
  id: string;
  /** The movements asked after the centre frame (liveness-rules.ts Direction); a challenge of the old protocol has none. */
  directions?: ('left' | 'right' | 'tilt_left' | 'tilt_right')[];
  issuedAt: string;
  expiresAt: string;
}

/** What the session concluded; no personal data (that lives in the sealed verification record). */
export interface SessionOutcome {
  result: 'pass' | 'fail';
  explanations: string[];
  facematchLevel: number;
  eidasHigh: boolean;
  completedAt: string;
}

@Entity('verification_sessions')
export class VerificationSessionEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'client_id', type: 'text' }) clientId: string;
  @Column({ name: 'interaction_uid', type: 'text' }) interactionUid: string;
  @Column({ name: 'qr_token_sha256', type: 'text', unique: true }) qrTokenSha256: string;
  @Column({ name: 'app_token_sha256', type: 'text', nullable: true, unique: true }) appTokenSha256: string | null;
  @Column({ type: 'text' }) state: SessionState;
  @Column({ type: 'jsonb' }) requirements: SessionRequirements;
  @Column({ name: 'aa_challenge', type: 'text', nullable: true }) aaChallenge: string | null;
  /** Sealed Chip Authentication terminal state (ephemeral private key, session keys): the server is the CA terminal. */
  @Column({ name: 'ca_challenge_sealed', type: 'text', nullable: true }) caChallengeSealed: string | null;
  @Column({ name: 'liveness_challenge', type: 'jsonb', nullable: true }) livenessChallenge: LivenessChallenge | null;
  /** Sealed chip evidence between the chip step and the face step (document data, photo, chip checks). */
  @Column({ name: 'chip_sealed', type: 'text', nullable: true }) chipSealed: string | null;
  /** The chip photo's face template (engine name and embedding), sealed; computed after the chip step, cleared with chipSealed. */
  @Column({ name: 'document_face_sealed', type: 'text', nullable: true }) documentFaceSealed: string | null;
  @Column({ type: 'jsonb', nullable: true }) outcome: SessionOutcome | null;
  @Column({ name: 'record_id', type: 'uuid', nullable: true }) recordId: string | null;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
