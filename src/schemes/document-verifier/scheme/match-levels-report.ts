import { Inject, Injectable } from '@nestjs/common';
import { type MatchLevelTable, MATCHING_LEVELS, TARGET_FAR, TARGET_FRR } from '@identity-broker/face';
import type { MatchLevelsReport, MatchLevelStatus } from '../../../broker/spi/document-evidence/match-levels.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { verifierConfig } from '../config/verifier-config.js';
import { MATCH_LEVELS } from '../verification/face-engine.provider.js';

/**
 * What the running engine's calibration table vouches for, level by level: the product states it (service
 * documentation page, README) so that nobody reads an extrapolated level as a measured one.
 */
@Injectable()
export class MatchLevelsReporter {
  constructor(
    @Inject(MATCH_LEVELS) private readonly table: MatchLevelTable,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  report(): MatchLevelsReport {
    const calibration = this.table.calibration;
    const validated = new Set(calibration.validatedLevels ?? []);
    const levels = MATCHING_LEVELS.map((level): MatchLevelStatus => {
      const measured = calibration.levels?.[level];
      return {
        level,
        targetFar: TARGET_FAR[level],
        threshold: calibration.thresholds[level],
        status: validated.has(level) ? 'validated' : 'extrapolated',
        ...(measured && {
          falseAccepts: measured.falseAccepts,
          impostorPairs: measured.impostorPairs,
          falseRejects: measured.falseRejects,
          genuinePairs: measured.genuinePairs,
          measuredFrr: measured.measuredFrr,
          frrBelowTarget: measured.frrBelowTarget,
        }),
      };
    });
    const minLevel = verifierConfig(this.config).minFacematchLevelForHigh;
    const highStatus = levels.find((l) => l.level === minLevel)?.status ?? 'extrapolated';
    return {
      engine: calibration.engine,
      metric: calibration.metric,
      calibratedOn: calibration.calibratedOn,
      targetFrr: TARGET_FRR,
      levels,
      eidasHigh: { minLevel, status: highStatus },
    };
  }
}
