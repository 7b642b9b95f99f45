/** Face match level: 0 is a non-match, 9 the strictest (spec 2.2). */
export type MatchLevel = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

export const MATCHING_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
export type MatchingLevel = (typeof MATCHING_LEVELS)[number];

/** Spec 2.2: the false acceptance rate each level must not exceed. Every level also requires FRR < 1%. */
export const TARGET_FAR: Readonly<Record<MatchingLevel, number>> = {
  1: 1 / 100,
  2: 1 / 250,
  3: 1 / 500,
  4: 1 / 1_000,
  5: 1 / 10_000,
  6: 1 / 100_000,
  7: 1 / 500_000,
  8: 1 / 1_000_000,
  9: 1 / 2_000_000,
};

export const TARGET_FRR = 0.01;
