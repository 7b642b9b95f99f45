import { PNG } from 'pngjs';
import { drawText, GLYPH_HEIGHT, textWidth } from './bitmap-font.js';

type Rgb = [number, number, number];

export interface PresentationSeries {
  label: string;
  colour: Rgb;
  /** Scores in [0, 1]. */
  values: readonly number[];
}

export interface PresentationPanel {
  title: string;
  series: PresentationSeries[];
  /** Vertical dashed lines (thresholds) with labels. */
  marks?: Array<{ at: number; label: string }>;
}

const WIDTH = 1100;
const PANEL_HEIGHT = 250;
const LEFT = 90;
const RIGHT = 40;
const SCALE = 2;
const BINS = 40;
const INK: Rgb = [20, 20, 20];
const GRID: Rgb = [225, 225, 225];
const MARK: Rgb = [40, 80, 220];

/**
 * Histograms of presentation scores on [0, 1], one panel per score, each series as the share of its own items per
 * bin (so a series of 15 synthetic images and one of 97 photos compare), threshold marks across the panel.
 */
export function plotPresentation(title: string, panels: PresentationPanel[]): Buffer {
  const height = 70 + panels.length * (PANEL_HEIGHT + 70);
  const png = new PNG({ width: WIDTH, height });
  png.data.fill(255);
  const set = (x: number, y: number, [r, g, b]: Rgb, alpha = 1) => {
    x = Math.round(x);
    y = Math.round(y);
    if (x < 0 || y < 0 || x >= WIDTH || y >= height) return;
    const i = (y * WIDTH + x) * 4;
    png.data[i] = Math.round(png.data[i] * (1 - alpha) + r * alpha);
    png.data[i + 1] = Math.round(png.data[i + 1] * (1 - alpha) + g * alpha);
    png.data[i + 2] = Math.round(png.data[i + 2] * (1 - alpha) + b * alpha);
  };
  const hline = (x0: number, x1: number, y: number, c: Rgb) => {
    for (let x = x0; x <= x1; x++) set(x, y, c);
  };
  const vline = (x: number, y0: number, y1: number, c: Rgb, dash = 0) => {
    for (let y = y0; y <= y1; y++) if (!dash || Math.floor((y - y0) / dash) % 2 === 0) set(x, y, c);
  };
  const text = (s: string, x: number, y: number, c: Rgb = INK) => drawText(s, x, y, SCALE, (px, py) => set(px, py, c));
  const plotRight = WIDTH - RIGHT;
  const xOf = (score: number) => LEFT + score * (plotRight - LEFT);

  text(title, LEFT, 16);
  panels.forEach((panel, p) => {
    const top = 70 + p * (PANEL_HEIGHT + 70) + 30;
    const bottom = top + PANEL_HEIGHT - 30;
    const shares = panel.series.map((s) => {
      const counts = new Array<number>(BINS).fill(0);
      for (const v of s.values) counts[Math.min(BINS - 1, Math.max(0, Math.floor(v * BINS)))]++;
      return counts.map((c) => c / Math.max(1, s.values.length));
    });
    const maxShare = Math.max(0.1, Math.ceil(Math.max(...shares.flat()) * 1.3 * 10) / 10);
    const yOf = (share: number) => bottom - (share / maxShare) * (bottom - top);
    for (let tick = 0; tick <= maxShare + 1e-9; tick += 0.1) {
      hline(LEFT, plotRight, Math.round(yOf(tick)), GRID);
      const label = `${Math.round(tick * 100)}%`;
      text(label, LEFT - 10 - textWidth(label, SCALE), yOf(tick) - 7);
    }
    // The first series (genuine) filled, the others as outlines: four filled histograms would hide each other.
    shares.forEach((bins, s) => {
      const colour = panel.series[s].colour;
      let previousY = bottom;
      bins.forEach((share, b) => {
        const x0 = Math.round(xOf(b / BINS));
        const x1 = Math.round(xOf((b + 1) / BINS));
        const y = share === 0 ? bottom : Math.round(yOf(share));
        if (s === 0) for (let x = x0; x < x1; x++) for (let yy = y; yy < bottom; yy++) set(x, yy, colour, 0.35);
        hline(x0, x1 - 1, y, colour);
        hline(x0, x1 - 1, y - 1, colour);
        vline(x0, Math.min(y, previousY), Math.max(y, previousY), colour);
        vline(x0 + 1, Math.min(y, previousY), Math.max(y, previousY), colour);
        previousY = y;
      });
    });
    for (const [i, mark] of (panel.marks ?? []).entries()) {
      vline(Math.round(xOf(mark.at)), top, bottom, MARK, 4);
      text(mark.label, xOf(mark.at) - 4 - textWidth(mark.label, SCALE), top + 4 + i * 18, MARK); // left of the line, clear of the legend
    }
    vline(LEFT, top, bottom, INK);
    hline(LEFT, plotRight, bottom, INK);
    for (let tick = 0; tick <= 10; tick++) {
      vline(Math.round(xOf(tick / 10)), bottom, bottom + 5, INK);
      const label = (tick / 10).toFixed(1);
      text(label, xOf(tick / 10) - textWidth(label, SCALE) / 2, bottom + 9);
    }
    text(panel.title, LEFT + 10, top - 8 - GLYPH_HEIGHT * SCALE);
    panel.series.forEach((s, i) => {
      const x = LEFT + 20; // top left: the scores gather on the right
      const y = top + 6 + i * 20;
      for (let dy = 0; dy < 12; dy++) for (let dx = 0; dx < 22; dx++) set(x + dx, y + dy, s.colour);
      text(`${s.label} (${s.values.length})`, x + 30, y - 1);
    });
  });
  return PNG.sync.write(png);
}
