import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { FaceError, type WorkerFaceEngine } from '@identity-broker/face';
import { SecretBox } from '../../../common/crypto/secret-box.js';
import { logger } from '../../../common/logging/logger.js';
import { VerificationSessionEntity } from '../session/verification-session.entity.js';
import { FACE_ENGINE } from './face-engine.provider.js';
import { FaceWorkQueue } from './face-work-queue.js';

const context = (sessionId: string) => `verification-document-face:${sessionId}`;
/** An in-process result is kept this long for the face upload of the same session (a liveness window and more). */
const KEEP_MS = 10 * 60_000;

interface SealedTemplate {
  engine: string;
  embedding: number[];
}

/**
 * The chip photo's face template, computed while the person turns to the selfie: the chip step starts it in
 * the background (when this instance's face queue is idle, one at a time) and seals it into the
 * session row, so the face upload, on this instance or another, matches against it instead of analysing the
 * photo again (about a third of a verification's face work). The upload awaits a computation still running
 * here, and computes the template itself when there is none. A photo without a usable face is not stored:
 * the upload finds that out again and answers it as before. The template is biometric data: sealed
 * (AES-256-GCM, bound to the session), cleared with the chip evidence when the session ends.
 */
@Injectable()
export class DocumentFaceTemplates {
  private readonly running = new Map<string, Promise<Float32Array>>();
  /** Templates being made now; one at a time, so background work never grows with the traffic. */
  private inFlight = 0;

  constructor(
    @Inject(FACE_ENGINE) private readonly engine: WorkerFaceEngine,
    private readonly queue: FaceWorkQueue,
    private readonly secretBox: SecretBox,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * Starts the template of a session's chip photo when no verification runs or waits on this instance and no
   * other template is being made (it takes no slot of the face queue, so it never turns a verification away);
   * never throws.
   */
  precompute(sessionId: string, photo: Uint8Array): void {
    if (this.inFlight > 0 || !this.queue.idle) return;
    this.inFlight++;
    const work = this.analyse(photo).finally(() => this.inFlight--);
    this.running.set(sessionId, work);
    setTimeout(() => this.running.delete(sessionId), KEEP_MS).unref();
    work.then(
      (embedding) => this.store(sessionId, embedding),
      () => undefined, // the upload analyses the photo again and reports why it cannot be used
    );
  }

  /** The template for the face upload: from the session row, from this instance's run, or computed now. */
  async templateFor(session: VerificationSessionEntity, photo: Uint8Array): Promise<{ embedding: Float32Array; precomputed: boolean }> {
    const stored = session.documentFaceSealed && this.open(session.id, session.documentFaceSealed);
    if (stored) return { embedding: stored, precomputed: true };
    const running = this.running.get(session.id);
    this.running.delete(session.id);
    if (running) {
      try {
        return { embedding: await running, precomputed: true };
      } catch {
        /* analysed again below: the same photo gives the same error, reported by the caller */
      }
    }
    return { embedding: await this.analyse(photo), precomputed: false };
  }

  private async analyse(photo: Uint8Array): Promise<Float32Array> {
    const analysis = await this.engine.analyseFrame(photo, { descriptor: true, presentation: false });
    if (!analysis.embedding) throw new FaceError('NO_FACE', 'no descriptor for the document photo');
    return analysis.embedding;
  }

  private async store(sessionId: string, embedding: Float32Array): Promise<void> {
    const sealed = this.secretBox.encrypt(JSON.stringify({ engine: this.engine.name, embedding: [...embedding] } satisfies SealedTemplate), context(sessionId));
    try {
      // Only while the session waits for its face upload: a finished or cancelled session keeps nothing.
      await this.dataSource.getRepository(VerificationSessionEntity).update({ id: sessionId, state: 'chip_received' }, { documentFaceSealed: sealed });
    } catch (e) {
      logger.warn({ event: 'document_face_template_not_stored', error: (e as Error).message }, 'document face template not stored');
    }
  }

  /** Undefined for a template of another engine (the service was reconfigured meanwhile) or one that does not open. */
  private open(sessionId: string, sealed: string): Float32Array | undefined {
    try {
      const template = JSON.parse(this.secretBox.decryptText(sealed, context(sessionId))) as SealedTemplate;
      return template.engine === this.engine.name ? new Float32Array(template.embedding) : undefined;
    } catch {
      return undefined;
    }
  }
}
