/**
 * The face library's second entry, `@identity-broker/face/calibration`: the offline tools that derive the match
 * levels and chart the presentation-attack scores (scripts/calibrate-*.ts and their tests). The service never loads
 * them; they are kept apart from the main entry so that it carries only what a verification runs.
 */
export { calibrate, embedOutcome, readLabels, type CalibrationResult, type EmbeddingOutcome, type LabelledImage, type ScoredPairs } from './calibrate.js';
export { chooseThresholds, TAIL_FRACTION, type ThresholdChoice } from './choose-thresholds.js';
export { plotCalibration, type CalibrationPlotInput } from './plot-calibration.js';
export { plotPresentation, type PresentationPanel, type PresentationSeries } from './plot-presentation.js';
export { binomialUpperBound, normalCdf, normalQuantile, percentile } from './statistics.js';
export { phoneReplay, SYNTHETIC_ATTACKS, syntheticAttack, type SyntheticAttack } from './synthetic-attacks.js';
