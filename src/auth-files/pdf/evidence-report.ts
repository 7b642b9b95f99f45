import PDFDocument from 'pdfkit';
import { TARGET_FAR } from '../../../libs/face/src/levels/match-levels.js';
import { reportMessagesFor, type ClaimLabels, type ReportLocale, type ReportMessages } from '../../i18n/auth-files-report-messages.js';
import { documentMetadata, type MerchantMetadata } from './document-metadata.js';
import { reportFonts } from './fonts.js';
import type { PadesSigner } from '../signing/cades.js';
import { addSignaturePlaceholder, signatureRoom, signPlaceholder } from '../signing/pades.js';
import { installSecurityHandler, type EncryptionSettings, type PdfKitInternals } from './security/standard-security-handler.js';

/** What the report shows; built by the service from the sealed record, already limited to the merchant's scopes. */
export interface EvidenceReport {
  tid: string;
  result: 'pass' | 'fail';
  completedAt: Date;
  generatedAt: Date;
  attributes: { name: keyof ClaimLabels; value: string }[];
  facematchLevel: number;
  /** False when the chip failed and no face step ran: the face section then says nothing was compared. */
  faceStepRan: boolean;
  eidasHigh: boolean;
  explanations: string[];
  photos: { kind: 'document' | 'selfie'; jpeg: Buffer }[];
  addendum: [string, string][];
}

export interface ReportLayout {
  locale: ReportLocale;
  pageSize: 'a4' | 'letter';
  metadata: MerchantMetadata;
  encryption?: EncryptionSettings;
  /** PAdES B-B (spec 4.8 generate-pades): never with encryption (the request refuses the combination). */
  pades?: PadesSigner;
}

const MARGIN = 50;
const LABEL_WIDTH = 170;
const PASS_COLOUR = '#1b5e20';
const FAIL_COLOUR = '#b71c1c';

/** The evidence report of spec 4.8 as PDF bytes: one page, two with photos or a long addendum. */
export async function renderEvidenceReport(report: EvidenceReport, layout: ReportLayout): Promise<Buffer> {
  const t = reportMessagesFor(layout.locale);
  const fonts = reportFonts();
  const meta = documentMetadata(layout.metadata, { title: t.title, language: layout.locale }, report.generatedAt);
  const encryption = layout.encryption;
  const doc = new PDFDocument({
    autoFirstPage: false,
    bufferPages: true,
    size: layout.pageSize === 'letter' ? 'LETTER' : 'A4',
    margin: MARGIN,
    // 1.4 is the least that carries XMP and RC4 revision 3; crypt filters (V 4) need 1.5; AES-256 (R 6) is 1.7 + ADBE extension level 8.
    pdfVersion: encryption?.keyBits === 256 ? '1.7' : encryption && !encryption.encryptMetadata ? '1.5' : '1.4',
    lang: layout.locale,
    displayTitle: true,
    info: meta.info as PDFKit.DocumentInfo,
    // Our embedded font from the start, so pdfkit's default (Helvetica, never embedded) is never used.
    font: fonts.regular as unknown as string,
  });
  const internals = doc as unknown as PdfKitInternals & { _addInfo(): void; appendXML(xml: string): void };
  internals._addInfo = () => internals.appendXML(meta.xmp);
  if (encryption) installSecurityHandler(internals, encryption);
  doc.registerFont('Body', fonts.regular);
  doc.registerFont('Bold', fonts.bold);
  const bytes = collect(doc);
  doc.addPage();
  writeContent(doc, report, t, layout.locale);
  writeFooters(doc, report.tid, t);
  const room = layout.pades ? signatureRoom(layout.pades) : 0;
  if (layout.pades) {
    if (encryption) throw new Error('a PAdES signature is not combined with encryption');
    doc.switchToPage(0);
    addSignaturePlaceholder(internals as never, room, report.generatedAt, t.title);
  }
  doc.end();
  return layout.pades ? signPlaceholder(await bytes, layout.pades, room) : bytes;
}

function writeContent(doc: PDFKit.PDFDocument, r: EvidenceReport, t: ReportMessages, locale: ReportLocale): void {
  const width = doc.page.width - 2 * MARGIN;
  doc.font('Bold').fontSize(18).text(t.title, MARGIN, MARGIN, { width });
  doc.moveDown(0.3).font('Body').fontSize(9).fillColor('#444444').text(t.intro, { width }).fillColor('black');
  doc.moveDown(0.8);

  const top = doc.y;
  doc.rect(MARGIN, top, width, 30).fill(r.result === 'pass' ? PASS_COLOUR : FAIL_COLOUR);
  doc.fillColor('white').font('Bold').fontSize(13).text(`${t.result}: ${r.result === 'pass' ? t.pass : t.fail}`, MARGIN + 10, top + 8, { width: width - 20 });
  doc.fillColor('black');
  doc.y = top + 40;
  row(doc, t.verifiedAt, dateTime(r.completedAt, locale));
  row(doc, t.transactionId, r.tid);
  if (r.explanations.length) row(doc, t.claims.result_explanation, r.explanations.join(', '));
  if (r.eidasHigh) row(doc, '', t.eidasHigh);

  heading(doc, t.attributes);
  if (r.attributes.length === 0) doc.font('Body').fontSize(10).text(t.noAttributes, MARGIN, doc.y, { width });
  for (const a of r.attributes) row(doc, t.claims[a.name], a.value);

  heading(doc, t.faceMatch);
  const level = r.facematchLevel;
  const far = level >= 1 && level <= 9 ? t.falseAcceptance.replace('{n}', new Intl.NumberFormat(locale).format(Math.round(1 / TARGET_FAR[level as 1]))) : t.nonMatch;
  row(doc, t.faceMatchLevel, r.faceStepRan ? `${level} (${far})` : '–');

  if (r.photos.length) photos(doc, r.photos, t);

  if (r.addendum.length) {
    heading(doc, t.addendum);
    for (const [key, value] of r.addendum) row(doc, key, value);
  }
  doc.moveDown(1).font('Body').fontSize(8).fillColor('#444444').text(`${t.generatedAt}: ${dateTime(r.generatedAt, locale)}`, MARGIN, doc.y, { width }).fillColor('black');
}

/** Keeps a heading with at least a row under it. */
function heading(doc: PDFKit.PDFDocument, text: string): void {
  ensureSpace(doc, 60);
  doc.moveDown(0.8);
  const width = doc.page.width - 2 * MARGIN;
  doc.font('Bold').fontSize(12).text(text, MARGIN, doc.y, { width });
  doc.moveTo(MARGIN, doc.y + 1).lineTo(MARGIN + width, doc.y + 1).lineWidth(0.5).strokeColor('#888888').stroke();
  doc.y += 6;
}

/** A label and its value side by side; a long value wraps in its column. */
function row(doc: PDFKit.PDFDocument, label: string, value: string): void {
  ensureSpace(doc, 28);
  const y = doc.y;
  const valueWidth = doc.page.width - 2 * MARGIN - LABEL_WIDTH;
  doc.font('Bold').fontSize(9).text(label, MARGIN, y, { width: LABEL_WIDTH - 10 });
  const labelBottom = doc.y;
  doc.font('Body').fontSize(10).text(value, MARGIN + LABEL_WIDTH, y, { width: valueWidth });
  doc.y = Math.max(labelBottom, doc.y) + 3;
}

function photos(doc: PDFKit.PDFDocument, list: EvidenceReport['photos'], t: ReportMessages): void {
  heading(doc, t.photos);
  ensureSpace(doc, 230);
  const top = doc.y;
  list.forEach((p, i) => {
    const x = MARGIN + i * 180;
    doc.image(p.jpeg, x, top, { fit: [150, 190], align: 'center', valign: 'center' });
    doc.font('Body').fontSize(8).text(p.kind === 'document' ? t.documentPhoto : t.selfie, x, top + 195, { width: 150, align: 'center' });
  });
  doc.x = MARGIN;
  doc.y = top + 215;
}

function ensureSpace(doc: PDFKit.PDFDocument, points: number): void {
  if (doc.y + points > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

/** The transaction id and page number at the foot of every page (written last, when the page count is known). */
function writeFooters(doc: PDFKit.PDFDocument, tid: string, t: ReportMessages): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    // Writing inside the bottom margin would make pdfkit open a new page.
    doc.page.margins.bottom = 0;
    const text = t.footer.replace('{tid}', tid).replace('{page}', String(i + 1)).replace('{pages}', String(range.count));
    doc.font('Body').fontSize(8).fillColor('#444444').text(text, MARGIN, doc.page.height - 35, { width: doc.page.width - 2 * MARGIN, align: 'center', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.fillColor('black');
}

function dateTime(d: Date, locale: ReportLocale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }).format(d);
}

function collect(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}
