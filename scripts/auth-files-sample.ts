/**
 * Writes the sample evidence report shown in the README (docs/auth-files-sample.png): the specimen holder of the
 * test eID, no photos (the test faces are for tests only). Needs poppler-utils for the PNG.
 *   npx tsx scripts/auth-files-sample.ts [locale]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderEvidenceReport } from '../src/auth-files/pdf/evidence-report.js';
import type { ReportLocale } from '../src/i18n/auth-files-report-messages.js';

const locale = (process.argv[2] ?? 'en-GB') as ReportLocale;
const at = new Date('2025-06-02T09:30:00Z');
const pdf = await renderEvidenceReport(
  {
    tid: '0b7d6c2e-5a1f-4c7e-9a55-3f1d2b8e4a10',
    result: 'pass',
    completedAt: at,
    generatedAt: new Date(at.getTime() + 120_000),
    attributes: [
      { name: 'document_type', value: 'PASSPORT' },
      { name: 'issuing_country', value: 'NOR' },
      { name: 'interpreted_issuing_country', value: 'Norway' },
      { name: 'document_number', value: 'FH7654321' },
      { name: 'primary_identifier', value: 'NORDMANN' },
      { name: 'secondary_identifier', value: 'KAARE' },
      { name: 'nationality', value: 'NOR' },
      { name: 'birthdate', value: '15.01.1980' },
      { name: 'gender', value: 'MALE' },
      { name: 'date_of_expiry', value: '01.01.2031' },
      { name: 'name', value: 'KÅRE NORDMANN' },
      { name: 'place_of_birth', value: 'OSLO' },
      { name: 'other_identifier', value: 'NORDMANN, KÅRE' },
      { name: 'authentication_sources', value: 'SDK_NFC, SDK_FACESCAN' },
    ],
    facematchLevel: 8,
    faceStepRan: true,
    eidasHigh: true,
    explanations: [],
    photos: [],
    addendum: [['Order', '4711'], ['Customer reference', 'C-0042']],
  },
  { locale, pageSize: 'a4', metadata: { dc: { title: 'Identity check, order 4711' } } },
);
const dir = mkdtempSync(join(tmpdir(), 'auth-files-sample-'));
writeFileSync(join(dir, 'sample.pdf'), pdf);
execFileSync('pdftoppm', ['-r', '70', '-png', '-singlefile', join(dir, 'sample.pdf'), 'docs/auth-files-sample']);
console.log('docs/auth-files-sample.png');
