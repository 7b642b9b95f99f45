import 'reflect-metadata';
import { renderEvidenceReport, type EvidenceReport } from './evidence-report.js';
import { reportCheckMessagesFor } from '../../i18n/auth-files-report-checks-messages.js';
import { reportMessagesFor, type ReportLocale } from '../../i18n/auth-files-report-messages.js';
import { sampleJpeg } from '../../../test/support/auth-files-record.js';
import { pdfPageCount, pdfText, pdfToolsRequirement } from '../../../test/support/pdf-tools.js';
import { passedReport } from '../../../test/support/sample-reports.js';
import { itWhen } from '../../../test/support/when-available.js';

const withTools = itWhen(pdfToolsRequirement());

/** The last line with text on each page but the last, as pdftotext -layout lays the pages out. */
function lastLinesOfPages(pdf: Buffer): string[] {
  const pages = pdfPageCount(pdf);
  const last: string[] = [];
  for (let page = 1; page < pages; page++) {
    const lines = pdfText(pdf, { page, layout: true })
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    // The last line is the page's footer (the transaction and the page number), furniture, not content.
    last.push(lines.filter((l) => !/· page \d+ of \d+$/.test(l)).at(-1) ?? '');
  }
  return last;
}

/**
 * A report with long names, every check, both photos and an addendum whose entries wrap, pushed down line by line
 * by a merchant name that grows and pulled up by attributes left out as `extra` varies: the page breaks move through
 * the headings, the photos and the rows.
 */
function longReport(extra: number): EvidenceReport {
  const report = passedReport();
  const long = 'Anna-Katharina Maria Sofie Elisabeth Wilhelmina';
  return {
    ...report,
    // Wraps into more lines as `extra` grows: everything after it moves down, line by line.
    merchant: `Nordisk Långnamnsbank ${'och Försäkringsaktiebolag '.repeat(Math.floor(extra / 12))}filial i Norge`,
    // Fewer attributes: everything after them moves up, a row at a time.
    attributes: report.attributes
      .map((a) => (a.name === 'secondary_identifier' || a.name === 'primary_identifier' ? { ...a, value: `${long} ${a.value}` } : a))
      .slice(0, Math.max(1, report.attributes.length - (extra % 12))),
    photos: [
      { kind: 'document', jpeg: sampleJpeg() },
      { kind: 'selfie', jpeg: sampleJpeg(240, 320, 90) },
    ],
    addendum: Array.from(
      { length: 4 + (extra % 7) },
      (_, i) => [`Reference ${i + 1}`, i % 3 === 0 ? `${long}, ${long}, ${long}` : `order ${4711 + i}`] as [string, string],
    ),
  };
}

describe('evidence report layout: nothing stranded at the foot of a page', () => {
  withTools('never ends a page with a heading, and keeps a label with its value (long names, many rows, photos)', async () => {
    const locale: ReportLocale = 'en-GB';
    const t = reportMessagesFor(locale);
    const c = reportCheckMessagesFor(locale);
    const headings = new Set([c.checks, t.attributes, t.photos, t.addendum]);
    const labels = [...Object.values(c.labels), c.issuedBy, c.merchant];
    let breaks = 0;
    for (let extra = 0; extra < 36; extra++) {
      const pdf = await renderEvidenceReport(longReport(extra), { locale, pageSize: 'a4', metadata: {} });
      for (const line of lastLinesOfPages(pdf)) {
        breaks++;
        expect({ extra, line, heading: headings.has(line) }).toEqual({ extra, line, heading: false });
        // A label alone on the last line would have its value on the next page.
        expect({ extra, line, bareLabel: labels.includes(line) || /^Reference \d+$/.test(line) }).toEqual({ extra, line, bareLabel: false });
      }
    }
    // The sweep did cross pages (else it proved nothing).
    expect(breaks).toBeGreaterThan(10);
  });
});
