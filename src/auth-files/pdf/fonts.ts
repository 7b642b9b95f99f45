import type * as fontkit from 'fontkit';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ReportFonts {
  regular: fontkit.Font;
  bold: fontkit.Font;
}

let cached: ReportFonts | undefined;

/**
 * The fonts shipped in assets/fonts (DejaVu Sans, see its README for the licence), read and parsed once: pdfkit
 * takes a parsed font wherever it takes font bytes, and parsing the two 700 kB files for every report cost more
 * than laying it out. Each document still makes its own subset. Found by walking up from this module, so it works
 * from the sources (tsx, jest) and from dist/ alike.
 */
export async function reportFonts(): Promise<ReportFonts> {
  if (cached) return cached;
  // Loaded with the first report, not at start-up (fontkit with brotli is about 0.8 MB of code).
  const { create } = await import('fontkit');
  const dir = fontDirectory();
  const parse = (file: string) => create(new Uint8Array(readFileSync(path.join(dir, file))));
  cached = { regular: parse('DejaVuSans.ttf'), bold: parse('DejaVuSans-Bold.ttf') };
  return cached;
}

function fontDirectory(): string {
  let directory = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(directory, 'assets', 'fonts');
    if (existsSync(path.join(candidate, 'DejaVuSans.ttf'))) return candidate;
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error('assets/fonts/DejaVuSans.ttf not found above ' + fileURLToPath(import.meta.url));
    directory = parent;
  }
}
