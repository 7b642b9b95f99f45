import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ReportFonts {
  regular: Buffer;
  bold: Buffer;
}

let cached: ReportFonts | undefined;

/**
 * The fonts shipped in assets/fonts (DejaVu Sans, see its README for the licence), read once. Found by walking up
 * from this module, so it works from the sources (tsx, jest) and from dist/ alike.
 */
export function reportFonts(): ReportFonts {
  if (cached) return cached;
  const dir = fontDirectory();
  cached = { regular: readFileSync(path.join(dir, 'DejaVuSans.ttf')), bold: readFileSync(path.join(dir, 'DejaVuSans-Bold.ttf')) };
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
