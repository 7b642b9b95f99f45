import { PNG } from 'pngjs';
import type { SimilarityMetric } from '../face-engine.js';
import type { LevelCalibration } from '../levels/calibration-table.js';
import { MATCHING_LEVELS, type MatchingLevel } from '../levels/match-levels.js';
import { drawText, GLYPH_HEIGHT, textWidth } from './bitmap-font.js';

export interface CalibrationPlotInput {
  engine: string;
  metric: SimilarityMetric;
  genuine: readonly number[];
  impostor: readonly number[];
  levels: Record<MatchingLevel, LevelCalibration>;
}

type Rgb = [number, number, number];
const WIDTH = 1100;
const HEIGHT = 860;
const LEFT = 100;
const RIGHT = 60;
const SCALE = 2; // font scale: 10x14 pixel glyphs
const GENUINE: Rgb = [0, 140, 60];
const IMPOSTOR: Rgb = [200, 30, 30];
const THRESHOLD: Rgb = [40, 80, 220];
const GRID: Rgb = [225, 225, 225];
const INK: Rgb = [20, 20, 20];
/** The error-rate panel shows rates down to this (log scale); 0 is drawn on the bottom edge. */
const RATE_FLOOR = 1e-4;

/**
 * Draws the calibration as a PNG: top, the genuine and impostor score histograms (share of each class per
 * bin); below, FAR and FRR against the threshold on a log scale. Both panels share the score axis and
 * mark every level's threshold, so one can see where each level cuts both distributions.
 */
export function plotCalibration(input: CalibrationPlotInput): Buffer {
  const png = new PNG({ width: WIDTH, height: HEIGHT });
  png.data.fill(255);
  const set = (x: number, y: number, [r, g, b]: Rgb, alpha = 1) => {
    x = Math.round(x);
    y = Math.round(y);
    if (x < 0 || y < 0 || x >= WIDTH || y >= HEIGHT) return;
    const i = (y * WIDTH + x) * 4;
    png.data[i] = Math.round(png.data[i] * (1 - alpha) + r * alpha);
    png.data[i + 1] = Math.round(png.data[i + 1] * (1 - alpha) + g * alpha);
    png.data[i + 2] = Math.round(png.data[i + 2] * (1 - alpha) + b * alpha);
  };
  const line = (x0: number, y0: number, x1: number, y1: number, colour: Rgb, dash = 0, thick = 1) => {
    const steps = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0), 1);
    for (let s = 0; s <= steps; s++) {
      if (dash && Math.floor(s / dash) % 2 === 1) continue;
      const x = x0 + ((x1 - x0) * s) / steps;
      const y = y0 + ((y1 - y0) * s) / steps;
      for (let t = 0; t < thick; t++) set(x + (Math.abs(y1 - y0) > Math.abs(x1 - x0) ? t : 0), y + (Math.abs(y1 - y0) > Math.abs(x1 - x0) ? 0 : t), colour);
    }
  };
  const text = (s: string, x: number, y: number, colour: Rgb = INK, scale = SCALE) => drawText(s, x, y, scale, (px, py) => set(px, py, colour));

  const isDistance = input.metric === 'euclidean-distance';
  const all = [...input.genuine, ...input.impostor];
  const span = Math.max(...all) - Math.min(...all) || 1;
  const low = Math.min(...all) - span * 0.03;
  const high = Math.max(...all) + span * 0.03;
  const plotRight = WIDTH - RIGHT;
  const xOf = (score: number) => LEFT + ((score - low) / (high - low)) * (plotRight - LEFT);

  text(`FACE CALIBRATION: ${input.engine}`, LEFT, 14);
  text(
    `${input.genuine.length} GENUINE, ${input.impostor.length} IMPOSTOR PAIRS; ACCEPT WHEN ${isDistance ? 'DISTANCE <=' : 'SIMILARITY >='} LEVEL THRESHOLD`,
    LEFT,
    40,
    INK,
    SCALE,
  );

  // Panel 1: histograms.
  const top1 = 90;
  const bottom1 = 380;
  const bins = 60;
  const binWidth = (high - low) / bins;
  const shares = (values: readonly number[]) => {
    const counts = new Array<number>(bins).fill(0);
    for (const v of values) counts[Math.min(bins - 1, Math.floor((v - low) / binWidth))]++;
    return counts.map((c) => c / values.length);
  };
  const genuineShares = shares(input.genuine);
  const impostorShares = shares(input.impostor);
  // Headroom above the highest bar keeps the legend clear of the histograms.
  const maxShare = Math.ceil(Math.max(...genuineShares, ...impostorShares) * 1.4 * 20) / 20;
  const yShare = (share: number) => bottom1 - (share / maxShare) * (bottom1 - top1);
  for (let tick = 0; tick <= maxShare + 1e-9; tick += 0.05) {
    line(LEFT, yShare(tick), plotRight, yShare(tick), GRID);
    const label = `${Math.round(tick * 100)}%`;
    text(label, LEFT - 10 - textWidth(label, SCALE), yShare(tick) - 7);
  }
  for (const [shareList, colour] of [
    [impostorShares, IMPOSTOR],
    [genuineShares, GENUINE],
  ] as const) {
    for (let b = 0; b < bins; b++) {
      const x0 = Math.round(xOf(low + b * binWidth));
      const x1 = Math.round(xOf(low + (b + 1) * binWidth));
      const y = Math.round(yShare(shareList[b]));
      for (let x = x0; x < x1; x++) for (let yy = y; yy < bottom1; yy++) set(x, yy, colour, 0.45);
      if (shareList[b] > 0) line(x0, y, x1, y, colour, 0, 2);
    }
  }
  text('SHARE OF PAIRS PER BIN', LEFT + 10, top1 - 4 - GLYPH_HEIGHT * SCALE);
  legend(text, set, plotRight - 300, top1 + 10, [
    ['GENUINE (SAME PERSON)', GENUINE],
    ['IMPOSTOR (DIFFERENT)', IMPOSTOR],
    ['LEVEL THRESHOLD', THRESHOLD],
  ]);

  // Panel 2: FAR and FRR against the threshold, log scale.
  const top2 = 470;
  const bottom2 = 760;
  const decades = -Math.log10(RATE_FLOOR);
  const yRate = (rate: number) => bottom2 - ((Math.log10(Math.max(rate, RATE_FLOOR)) + decades) / decades) * (bottom2 - top2);
  for (let d = 0; d <= decades; d++) {
    const rate = 10 ** -d;
    line(LEFT, yRate(rate), plotRight, yRate(rate), GRID);
    const label = d === 0 ? '1' : `1E-${d}`;
    text(label, LEFT - 10 - textWidth(label, SCALE), yRate(rate) - 7);
  }
  text('ERROR RATE AT THRESHOLD (LOG; 0 ON THE FLOOR)', LEFT + 10, top2 - 4 - GLYPH_HEIGHT * SCALE);
  const accepts = (score: number, threshold: number) => (isDistance ? score <= threshold : score >= threshold);
  const rates = (threshold: number) => ({
    far: input.impostor.filter((s) => accepts(s, threshold)).length / input.impostor.length,
    frr: input.genuine.filter((s) => !accepts(s, threshold)).length / input.genuine.length,
  });
  let previous: { x: number; far: number; frr: number } | undefined;
  for (let x = LEFT; x <= plotRight; x += 2) {
    const { far, frr } = rates(low + ((x - LEFT) / (plotRight - LEFT)) * (high - low));
    if (previous) {
      line(previous.x, yRate(previous.far), x, yRate(far), IMPOSTOR, 0, 2);
      line(previous.x, yRate(previous.frr), x, yRate(frr), GENUINE, 0, 2);
    }
    previous = { x, far, frr };
  }
  // Top centre: between the FRR curve (high on one side) and the FAR curve (high on the other).
  legend(text, set, (LEFT + plotRight) / 2 - 170, top2 + 10, [
    ['FAR (IMPOSTORS ACCEPTED)', IMPOSTOR],
    ['FRR (GENUINE REJECTED)', GENUINE],
  ]);

  // Level thresholds across both panels; levels sharing a threshold share one label ("L4,5").
  const byThreshold = new Map<number, number[]>();
  for (const level of MATCHING_LEVELS) {
    const t = input.levels[level].threshold;
    byThreshold.set(t, [...(byThreshold.get(t) ?? []), level]);
  }
  let row = 0;
  for (const [threshold, levels] of [...byThreshold.entries()].sort((a, b) => a[0] - b[0])) {
    const x = Math.round(xOf(threshold));
    line(x, top1, x, bottom1, THRESHOLD, 4);
    line(x, top2, x, bottom2, THRESHOLD, 4);
    const label = `L${levels.join(',')}`;
    text(label, x - textWidth(label, SCALE) / 2, bottom1 + 6 + (row % 3) * 18, THRESHOLD, SCALE);
    row++;
  }

  // Frames and the shared score axis.
  for (const [top, bottom] of [
    [top1, bottom1],
    [top2, bottom2],
  ]) {
    line(LEFT, top, LEFT, bottom, INK);
    line(LEFT, bottom, plotRight, bottom, INK);
  }
  const step = niceStep((high - low) / 10);
  for (let tick = Math.ceil(low / step) * step; tick <= high; tick += step) {
    const x = xOf(tick);
    line(x, bottom2, x, bottom2 + 6, INK);
    const label = tick.toFixed(step < 0.1 ? 2 : 1);
    text(label, x - textWidth(label, SCALE) / 2, bottom2 + 10);
  }
  const axis = isDistance ? 'EUCLIDEAN DISTANCE (LOWER = MORE ALIKE)' : 'COSINE SIMILARITY (HIGHER = MORE ALIKE)';
  text(axis, (LEFT + plotRight) / 2 - textWidth(axis, SCALE) / 2, bottom2 + 44);
  return PNG.sync.write(png);
}

function legend(
  text: (s: string, x: number, y: number, colour?: Rgb, scale?: number) => number,
  set: (x: number, y: number, colour: Rgb, alpha?: number) => void,
  x: number,
  y: number,
  entries: Array<[string, Rgb]>,
): void {
  entries.forEach(([label, colour], i) => {
    for (let dy = 0; dy < 12; dy++) for (let dx = 0; dx < 24; dx++) set(x + dx, y + i * 22 + dy, colour);
    text(label, x + 32, y + i * 22 - 1, [20, 20, 20], SCALE);
  });
}

function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  return (fraction < 1.5 ? 1 : fraction < 3.5 ? 2 : fraction < 7.5 ? 5 : 10) * power;
}
