import type { FaceEngine } from './face-engine.js';
import type { MatchLevelTable } from './levels/match-level-table.js';
import type { MatchLevel } from './levels/match-levels.js';
import type { FaceEmbedding, FaceImageInput } from './types.js';

export interface FaceMatch {
  /** Engine score, read by the table's metric (distance: lower = more alike). */
  score: number;
  level: MatchLevel;
  reference: FaceEmbedding;
  probe: FaceEmbedding;
}

/** Compares a reference photo (e.g. the document's DG2) with a probe (e.g. a selfie) and grades the match 0-9. */
export class FaceMatcher {
  constructor(
    private readonly engine: FaceEngine,
    private readonly table: MatchLevelTable,
  ) {
    // Thresholds are only meaningful for the engine (and metric) they were calibrated on.
    if (table.engine !== engine.name || table.metric !== engine.metric) {
      throw new RangeError(`calibration table ${table.engine}/${table.metric} does not belong to engine ${engine.name}/${engine.metric}`);
    }
  }

  /** Throws FaceError (NO_FACE, MULTIPLE_FACES, BAD_IMAGE) from either image. */
  async match(reference: FaceImageInput, probe: FaceImageInput): Promise<FaceMatch> {
    const referenceEmbedding = await this.engine.embed(reference);
    const probeEmbedding = await this.engine.embed(probe);
    return this.compare(referenceEmbedding, probeEmbedding);
  }

  compare(reference: FaceEmbedding, probe: FaceEmbedding): FaceMatch {
    const score = this.engine.similarity(reference.embedding, probe.embedding);
    return { score, level: this.table.level(score), reference, probe };
  }
}
