import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The independent PDF tools the auth-files tests judge our files with (Debian's qpdf and poppler-utils, installed
 * by .ci/run). Missing on a developer's machine, the tests that need them are skipped; under CI=true a missing
 * tool fails instead, so a green CI always means the files were checked.
 */
export const PDF_TOOLS = ['qpdf', 'pdftotext', 'pdffonts', 'pdfinfo', 'pdfsig', 'pdftoppm'] as const;

export function pdfToolsAvailable(): boolean {
  const missing = PDF_TOOLS.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
  if (missing.length && process.env.CI === 'true') throw new Error(`PDF tools missing under CI: ${missing.join(', ')} (apt-get install qpdf poppler-utils)`);
  return missing.length === 0;
}

/** For itWhen (when-available.ts): the tests that judge a PDF with the tools. */
export const pdfToolsRequirement = () => ({ available: pdfToolsAvailable(), missing: 'qpdf or poppler-utils not installed' });

/** Writes the PDF to a temporary file, runs `fn` with its path, removes it. */
export function withPdfFile<T>(pdf: Buffer, fn: (file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'auth-file-'));
  const file = join(dir, 'report.pdf');
  writeFileSync(file, pdf);
  try {
    return fn(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs a tool; stdout, or throws with its stderr (qpdf exits 3 for warnings only: that counts as a failure here). */
export function run(tool: string, args: string[]): string {
  return execFileSync(tool, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs a tool that is expected to fail; its exit status. */
export function status(tool: string, args: string[]): number | null {
  return spawnSync(tool, args, { stdio: 'ignore' }).status;
}

/**
 * The text of a PDF (or of one page) as poppler's pdftotext reads it; `layout` keeps a label and its value on one
 * line. Needs pdfToolsAvailable() first (the caller skips without the tools, and fails under CI=true).
 */
export function pdfText(pdf: Buffer, options: { page?: number; layout?: boolean } = {}): string {
  const pages = options.page ? ['-f', String(options.page), '-l', String(options.page)] : [];
  return withPdfFile(pdf, (file) => run('pdftotext', [...(options.layout ? ['-layout'] : []), ...pages, file, '-']));
}

/** The number of pages, as pdfinfo reads it. */
export function pdfPageCount(pdf: Buffer): number {
  return Number(/Pages:\s+(\d+)/.exec(withPdfFile(pdf, (file) => run('pdfinfo', [file])))?.[1]);
}
