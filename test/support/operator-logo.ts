import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';

/** A small operator logo (a two-colour 96×32 PNG) written to a fresh folder; returns its path and bytes. */
export function writeOperatorLogo(): { path: string; bytes: Buffer } {
  const png = new PNG({ width: 96, height: 32 });
  for (let y = 0; y < 32; y++)
    for (let x = 0; x < 96; x++) {
      const at = (y * 96 + x) * 4;
      const dark = x < 32;
      png.data.set(dark ? [0x7a, 0x1f, 0x5c, 255] : [0xff, 0xff, 0xff, 0], at);
    }
  const bytes = PNG.sync.write(png);
  const path = join(mkdtempSync(join(tmpdir(), 'operator-logo-')), 'logo.png');
  writeFileSync(path, bytes);
  return { path, bytes };
}
