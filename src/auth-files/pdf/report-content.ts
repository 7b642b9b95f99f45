import { TARGET_FAR } from '@identity-broker/face';
import type { ReportCheckMessages } from '../../i18n/auth-files-report-checks-messages.js';
import type { ReportLocale, ReportMessages } from '../../i18n/auth-files-report-messages.js';
import type { ReportCheck } from '../report/report-checks.js';
import { displayAttributes, displayExplanations } from '../report/report-values.js';
import type { EvidenceReport } from './evidence-report.js';
import {
  dateTime,
  ensureSpace,
  FAIL_COLOUR,
  heading,
  MARGIN,
  note,
  noteHeight,
  pageMarks,
  PASS_COLOUR,
  row,
  rowHeight,
  Tags,
  WARNING_COLOUR,
} from './layout.js';

/** The report's body, top to bottom: who issued it for whom, the result, each check, the attributes, photos, addendum. */
export function writeContent(doc: PDFKit.PDFDocument, tags: Tags, r: EvidenceReport, t: ReportMessages, c: ReportCheckMessages, locale: ReportLocale): void {
  const width = doc.page.width - 2 * MARGIN;
  // Page 1's marks are content, read first (the later pages repeat them as running headers: writePageFurniture).
  pageMarks(doc, markTexts(r, c), (draw) => tags.element('P', draw));
  tags.element('H1', () => doc.font('Bold').fontSize(18).text(t.title, MARGIN, MARGIN, { width }));
  tags.element('P', () => doc.moveDown(0.3).font('Body').fontSize(9).fillColor('#444444').text(t.intro, { width }).fillColor('black'));
  doc.moveDown(0.8);

  const top = doc.y;
  tags.artifact(() => doc.rect(MARGIN, top, width, 30).fill(r.result === 'pass' ? PASS_COLOUR : FAIL_COLOUR));
  tags.element('P', () =>
    doc
      .fillColor('white')
      .font('Bold')
      .fontSize(13)
      .text(`${t.result}: ${r.result === 'pass' ? t.pass : t.fail}`, MARGIN + 10, top + 8, { width: width - 20 }),
  );
  doc.fillColor('black');
  doc.y = top + 40;
  row(doc, tags, c.issuedBy, r.issuer);
  row(doc, tags, c.merchant, r.merchant);
  row(doc, tags, t.verifiedAt, dateTime(r.completedAt, locale));
  row(doc, tags, t.transactionId, r.tid);
  if (r.explanations.length) row(doc, tags, t.claims.result_explanation, displayExplanations(r.explanations, locale));
  if (r.eidasHigh) row(doc, tags, '', t.eidasHigh);

  heading(doc, tags, c.checks, rowHeight(doc, c.labels.documentSignature, c.outcomes.passed));
  for (const check of r.checks) checkRow(doc, tags, check, r, c, locale);

  const attributes = displayAttributes(r.attributes, locale);
  heading(doc, tags, t.attributes, attributes.length ? rowHeight(doc, t.claims[attributes[0].name], attributes[0].text) : 20);
  if (attributes.length === 0) tags.element('P', () => doc.font('Body').fontSize(10).text(t.noAttributes, MARGIN, doc.y, { width }));
  for (const a of attributes) row(doc, tags, t.claims[a.name], a.text);

  if (r.photos.length) photos(doc, tags, r.photos, t);

  if (r.addendum.length) {
    heading(doc, tags, t.addendum, rowHeight(doc, r.addendum[0][0], r.addendum[0][1]));
    for (const [key, value] of r.addendum) row(doc, tags, key, value);
  }
  doc.moveDown(1);
  tags.element('P', () =>
    doc
      .font('Body')
      .fontSize(8)
      .fillColor('#444444')
      .text(`${t.generatedAt}: ${dateTime(r.generatedAt, locale)}`, MARGIN, doc.y, { width })
      .fillColor('black'),
  );
}

export function markTexts(r: EvidenceReport, c: ReportCheckMessages): string[] {
  return r.marks.map((m) => (m === 'test' ? c.testMark : c.specimenMark));
}

/** "Outcome – detail" in words, red when it failed; the face match level with its rate and, above the validated levels, the note that says so. */
function checkRow(doc: PDFKit.PDFDocument, tags: Tags, check: ReportCheck, r: EvidenceReport, c: ReportCheckMessages, locale: ReportLocale): void {
  const details: string[] = [];
  if (check.method) details.push(c.methods[check.method]);
  if (check.reason) details.push(c[check.reason].replace('{date}', check.date ? dateTime(check.date, locale) : '?'));
  const level = r.facematchLevel;
  const rated = check.id === 'faceMatch' && level >= 1 && level <= 9;
  const modelled = rated && !r.validatedLevels.includes(level);
  const max = Math.max(0, ...r.validatedLevels);
  if (rated) details.push(farText(level, modelled, max, c, locale));
  const text = [c.outcomes[check.outcome], ...details].join(' – ');
  const explanation = modelled ? c.extrapolated.replace('{level}', String(level)).replace('{max}', String(max)) : undefined;
  // The row and its note on one page.
  ensureSpace(doc, rowHeight(doc, c.labels[check.id], text) + (explanation ? noteHeight(doc, explanation) : 0));
  row(doc, tags, c.labels[check.id], text, check.outcome === 'failed' ? FAIL_COLOUR : check.outcome === 'warning' ? WARNING_COLOUR : 'black');
  if (explanation) note(doc, tags, explanation);
}

/**
 * The level's false acceptance rate. Above the validated levels the figure is a model's, and the line itself says so
 * and gives the highest validated level's measured bound beside it, so that no reader takes a modelled rate for a
 * measured one (the note under it says why).
 */
function farText(level: number, modelled: boolean, max: number, c: ReportCheckMessages, locale: ReportLocale): string {
  const oneIn = (l: number) => new Intl.NumberFormat(locale).format(Math.round(1 / TARGET_FAR[l as 1]));
  if (!modelled) return c.levelFar.replace('{level}', String(level)).replace('{n}', oneIn(level));
  const text = max >= 1 ? c.levelFarModelled.replace('{m}', oneIn(max)).replace('{max}', String(max)) : c.levelFarModelledUnmeasured;
  return text.replace('{level}', String(level)).replace('{n}', oneIn(level));
}

function photos(doc: PDFKit.PDFDocument, tags: Tags, list: EvidenceReport['photos'], t: ReportMessages): void {
  // The heading with the photos and their captions (215 pt) under it.
  heading(doc, tags, t.photos, 220);
  const top = doc.y;
  list.forEach((p, i) => {
    const x = MARGIN + i * 180;
    const caption = p.kind === 'document' ? t.documentPhoto : t.selfie;
    tags.element('Figure', () => doc.image(p.jpeg, x, top, { fit: [150, 190], align: 'center', valign: 'center' }), caption);
    tags.element('P', () =>
      doc
        .font('Body')
        .fontSize(8)
        .text(caption, x, top + 195, { width: 150, align: 'center' }),
    );
  });
  doc.x = MARGIN;
  doc.y = top + 215;
}
