import { Inject, Injectable } from '@nestjs/common';
import { FaceError } from '../../../libs/face/src/errors.js';
import type { FaceEngine } from '../../../libs/face/src/face-engine.js';
import { assertDecodableSize } from '../../../libs/face/src/image/decode-limits.js';
import { readImageHeader } from '../../../libs/face/src/image/read-image-header.js';
import type { MatchLevelTable } from '../../../libs/face/src/levels/match-level-table.js';
import type { FaceEmbedding } from '../../../libs/face/src/types.js';
import { unusableFaceData } from '../verifier.errors.js';
import { EXPLANATION, type Explanation } from './explanations.js';
import { FACE_ENGINE, MATCH_LEVELS } from './face-engine.provider.js';
import { FaceWorkQueue } from './face-work-queue.js';
import { judgeLiveness, type Pose } from './liveness-rules.js';

export interface FaceFrame {
  pose: Pose;
  image: Uint8Array;
}

export interface FaceOutcome {
  facematchLevel: number;
  livenessPassed: boolean;
  explanations: Explanation[];
  problems: string[];
  /** The frame used as the selfie (the one facing the camera). */
  selfie: Uint8Array;
  selfieEmbedding: number[];
}

/** Face match (DG2 photo against the selfie, spec 2.2 levels) and liveness (the frames answer the challenge). */
@Injectable()
export class FaceVerificationService {
  constructor(
    @Inject(FACE_ENGINE) private readonly engine: FaceEngine,
    @Inject(MATCH_LEVELS) private readonly levels: MatchLevelTable,
    private readonly queue: FaceWorkQueue,
  ) {}

  /**
   * Frames are refused by their headers first (unreadable or too large: 422, no slot taken, nothing decoded);
   * the work itself waits for a slot of the instance's face queue (full: 503 with Retry-After).
   */
  async evaluate(documentPhoto: Uint8Array, sequence: Pose[], frames: FaceFrame[]): Promise<FaceOutcome> {
    for (const [i, frame] of frames.entries()) {
      try {
        const header = readImageHeader(frame.image);
        assertDecodableSize(header.format, header.width, header.height);
      } catch (e) {
        if (e instanceof FaceError) throw unusableFaceData(`frame ${i + 1}: ${e.message}`);
        throw e;
      }
    }
    return this.queue.run(() => this.evaluateNow(documentPhoto, sequence, frames));
  }

  private async evaluateNow(documentPhoto: Uint8Array, sequence: Pose[], frames: FaceFrame[]): Promise<FaceOutcome> {
    const explanations: Explanation[] = [];
    const problems: string[] = [];
    const embedded: FaceEmbedding[] = [];
    for (const [i, frame] of frames.entries()) {
      try {
        embedded.push(await this.engine.embed(frame.image));
      } catch (e) {
        if (e instanceof FaceError && (e.code === 'BAD_IMAGE' || e.code === 'TOO_LARGE')) throw unusableFaceData(`frame ${i + 1}: ${e.message}`);
        if (e instanceof FaceError) return this.noFace(frames, `frame ${i + 1}: ${e.code === 'NO_FACE' ? 'no face found' : 'more than one face'}`);
        throw e;
      }
    }
    let document: FaceEmbedding;
    try {
      document = await this.engine.embed(documentPhoto);
    } catch (e) {
      if (e instanceof FaceError) return this.noFace(frames, `document photo: ${e.message}`);
      throw e;
    }
    const lowest = this.levels.threshold(1);
    const sameFace = (score: number) => this.levels.level(score) >= 1 || score === lowest;
    const liveness = judgeLiveness(
      sequence,
      frames.map((f, i) => ({ pose: f.pose, yaw: embedded[i].detection.pose.yaw, sameFaceScore: this.engine.similarity(embedded[0].embedding, embedded[i].embedding) })),
      sameFace,
    );
    if (!liveness.passed) explanations.push(EXPLANATION.LIVENESS);
    problems.push(...liveness.problems);
    const selfieIndex = Math.max(0, frames.findIndex((f) => f.pose === 'center'));
    const level = this.levels.level(this.engine.similarity(document.embedding, embedded[selfieIndex].embedding));
    if (level === 0) explanations.push(EXPLANATION.FACE_MATCH);
    return {
      facematchLevel: level,
      livenessPassed: liveness.passed,
      explanations,
      problems,
      selfie: frames[selfieIndex].image,
      selfieEmbedding: [...embedded[selfieIndex].embedding],
    };
  }

  private noFace(frames: FaceFrame[], problem: string): FaceOutcome {
    const center = frames.find((f) => f.pose === 'center') ?? frames[0];
    return { facematchLevel: 0, livenessPassed: false, explanations: [EXPLANATION.NO_FACE], problems: [problem], selfie: center.image, selfieEmbedding: [] };
  }
}
