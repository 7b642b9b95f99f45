/**
 * Renders the sample evidence reports shown in docs/evidence-report.md: a passed and a failed verification, each in
 * en-GB and nb-NO (docs/evidence-report-{passed,failed}-{locale}.png).
 * The passed one is signed with a freshly made test signer; the failed one is a customer-test report of a specimen
 * document, unsigned. The data is made up (test/support/sample-reports.ts); no photos (the test faces are for tests only).
 * Needs poppler-utils (pdftoppm).
 *   npm run docs:sample-reports
 */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderEvidenceReport, type EvidenceReport } from '../src/auth-files/pdf/evidence-report.js';
import { newTestSigner, signerFromPem } from '../src/auth-files/signing/pades-signer.js';
import type { ReportLocale } from '../src/i18n/auth-files-report-messages.js';
import { failedReport, passedReport } from '../test/support/sample-reports.js';

const LOCALES: ReportLocale[] = ['en-GB', 'nb-NO'];
const signer = await signerFromPem(await newTestSigner('docs.example'));
const dir = mkdtempSync(join(tmpdir(), 'sample-reports-'));

/** One page to PNG at 60 dpi (small enough for the docs, legible when opened). */
async function render(report: EvidenceReport, locale: ReportLocale, signed: boolean, out: string): Promise<void> {
  const pdf = await renderEvidenceReport(report, {
    locale,
    pageSize: 'a4',
    metadata: { dc: { title: 'Identity check, order 4711' } },
    ...(signed ? { pades: signer } : {}),
  });
  const file = join(dir, 'report.pdf');
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-r', '60', '-png', '-singlefile', '-f', '1', '-l', '1', file, out]);
  console.log(`${out}.png (${Math.round(statSync(`${out}.png`).size / 1024)} KB)`);
}

try {
  for (const locale of LOCALES) {
    await render(passedReport(), locale, true, `docs/evidence-report-passed-${locale}`);
    await render(failedReport(), locale, false, `docs/evidence-report-failed-${locale}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
