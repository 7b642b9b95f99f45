/**
 * Writes the sample evidence report shown in the README (docs/auth-files-sample.png): the passed sample of
 * docs/evidence-report.md (made-up data, no photos: the test faces are for tests only), unsigned. Needs poppler-utils
 * for the PNG. The docs page's four samples come from `npm run docs:sample-reports`.
 *   npx tsx scripts/auth-files-sample.ts [locale]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderEvidenceReport } from '../src/auth-files/pdf/evidence-report.js';
import type { ReportLocale } from '../src/i18n/auth-files-report-messages.js';
import { passedReport } from '../test/support/sample-reports.js';

const locale = (process.argv[2] ?? 'en-GB') as ReportLocale;
const pdf = await renderEvidenceReport(
  passedReport({
    addendum: [
      ['Order', '4711'],
      ['Customer reference', 'C-0042'],
    ],
  }),
  {
    locale,
    pageSize: 'a4',
    metadata: { dc: { title: 'Identity check, order 4711' } },
  },
);
const dir = mkdtempSync(join(tmpdir(), 'auth-files-sample-'));
writeFileSync(join(dir, 'sample.pdf'), pdf);
execFileSync('pdftoppm', ['-r', '70', '-png', '-singlefile', join(dir, 'sample.pdf'), 'docs/auth-files-sample']);
console.log('docs/auth-files-sample.png');
