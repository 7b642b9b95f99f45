import { reportCheckMessagesFor, type ReportCheckMessages } from '../../i18n/auth-files-report-checks-messages.js';
import { reportMessagesFor, type ReportLocale, type ReportMessages } from '../../i18n/auth-files-report-messages.js';
import type { ReportCheck } from '../report/report-checks.js';
import type { ReportAttribute } from '../report/report-values.js';
import { documentMetadata, type MerchantMetadata } from './document-metadata.js';
import type { PdfAMode } from '../dto/fetch-auth-file.dto.js';
import { reportFonts } from './fonts.js';
import type { PadesSigner } from '../signing/cades.js';
import { addSignaturePlaceholder, signatureRoom, signPlaceholder } from '../signing/pades.js';
import { SIGNATURE_BOX_HEIGHT, signatureBoxWidth, signerName, type PdfKitFont, type SignatureBox } from '../signing/signature-appearance.js';
import { installSecurityHandler, type EncryptionSettings, type PdfKitInternals } from './security/standard-security-handler.js';
import { dateTime, ensureSpace, MARGIN, pageMarks, paragraph, Tags } from './layout.js';
import { markTexts, writeContent } from './report-content.js';

/** What the report shows; built by the service from the sealed record, already limited to the merchant's scopes. */
export interface EvidenceReport {
  tid: string;
  result: 'pass' | 'fail';
  completedAt: Date;
  generatedAt: Date;
  /** The operator that issues the report (OPERATOR_NAME). */
  issuer: string;
  /** The merchant whose transaction it is, as registered. */
  merchant: string;
  /** Printed on every page: made in customer-test, or of a specimen document. Empty for a live report of a real document. */
  marks: ('test' | 'specimen')[];
  attributes: ReportAttribute[];
  /** Each check with its outcome (report-checks.ts). */
  checks: ReportCheck[];
  facematchLevel: number;
  /** The face match levels whose false acceptance rate the running engine's calibration data validates; above them it is extrapolated. */
  validatedLevels: readonly number[];
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
  /** PDF/A (spec 4.8 pdf-a-mode): never with encryption (the request refuses the combination). */
  pdfA?: PdfAMode;
}

/**
 * pdfkit's PDF/A modes: fonts embedded (ours always are; a CIDSet for part 1), the XMP identification
 * (pdfaid:part and conformance) and an sRGB output intent (the ICC's sRGB2014 profile shipped in pdfkit's
 * package). PDF/A-2 and -3 are claimed at level B; 1a is tagged as well.
 */
const PDFKIT_SUBSET: Record<PdfAMode, string> = { 'PDF/A-1a': 'PDF/A-1a', 'PDF/A-1b': 'PDF/A-1b', 'PDF/A-2': 'PDF/A-2b', 'PDF/A-3': 'PDF/A-3b' };

/** The evidence report of spec 4.8 as PDF bytes: one page, two with photos or a long addendum. */
export async function renderEvidenceReport(report: EvidenceReport, layout: ReportLayout): Promise<Buffer> {
  const t = reportMessagesFor(layout.locale);
  const c = reportCheckMessagesFor(layout.locale);
  const fonts = await reportFonts();
  // pdfkit is loaded with the first report, not at start-up (about 0.1 s of the service's start).
  const { default: PDFDocument } = await import('pdfkit');
  const meta = documentMetadata(layout.metadata, { title: t.title, language: layout.locale }, report.generatedAt);
  const encryption = layout.encryption;
  if (layout.pdfA && encryption) throw new Error('PDF/A forbids encryption');
  const tagged = layout.pdfA === 'PDF/A-1a';
  const doc = new PDFDocument({
    autoFirstPage: false,
    bufferPages: true,
    size: layout.pageSize === 'letter' ? 'LETTER' : 'A4',
    margin: MARGIN,
    // 1.4 is the least that carries XMP and RC4 revision 3; crypt filters (V 4) need 1.5; AES-256 (R 6) is 1.7 + ADBE extension level 8.
    // PDF/A-1 is PDF 1.4; PDF/A-2 and -3 are PDF 1.7.
    pdfVersion:
      encryption?.keyBits === 256 || layout.pdfA === 'PDF/A-2' || layout.pdfA === 'PDF/A-3' ? '1.7' : encryption && !encryption.encryptMetadata ? '1.5' : '1.4',
    ...(layout.pdfA ? { subset: PDFKIT_SUBSET[layout.pdfA] as PDFKit.Mixins.PDFSubsets } : {}),
    tagged,
    lang: layout.locale,
    displayTitle: true,
    info: meta.info as PDFKit.DocumentInfo,
    // Our embedded font from the start, so pdfkit's default (Helvetica, never embedded) is never used.
    font: fonts.regular as unknown as string,
  });
  const internals = doc as unknown as PdfKitInternals & { _addInfo(): void; appendXML(xml: string): void };
  internals._addInfo = () => internals.appendXML(meta.xmp);
  if (encryption) installSecurityHandler(internals, encryption);
  // Parsed fonts (see reportFonts); pdfkit's types name only bytes and paths.
  doc.registerFont('Body', fonts.regular as unknown as Buffer);
  doc.registerFont('Bold', fonts.bold as unknown as Buffer);
  const bytes = collect(doc);
  doc.addPage();
  const tags = new Tags(doc, tagged);
  writeContent(doc, tags, report, t, c, layout.locale);
  const signatureBox = layout.pades
    ? reserveSignatureBox(doc, tags, t, c, signerName(layout.pades.chain[0]), dateTime(report.generatedAt, layout.locale))
    : undefined;
  writePageFurniture(doc, tags, report, t, c);
  tags.end();
  const room = layout.pades ? signatureRoom(layout.pades) : 0;
  if (layout.pades && signatureBox) {
    if (encryption) throw new Error('a PAdES signature is not combined with encryption');
    doc.switchToPage(signatureBox.page);
    addSignaturePlaceholder(internals as never, room, report.generatedAt, t.title, signatureBox, bodyFont(doc));
  }
  doc.end();
  return layout.pades ? signPlaceholder(await bytes, layout.pades, room) : bytes;
}

/**
 * Keeps room under the content of the last page for the visible signature (its widget is added once the page is
 * laid out): who signed and when, so a printed copy shows it was signed. The page's own text says so too (the
 * widget's appearance is an annotation, which text extraction and some printers leave out).
 */
function reserveSignatureBox(doc: PDFKit.PDFDocument, tags: Tags, t: ReportMessages, c: ReportCheckMessages, signer: string, date: string): SignatureBox {
  const lines = t.signedBy
    .replace('{signer}', () => signer)
    .replace('{date}', () => date)
    .split('\n');
  const width = signatureBoxWidth(lines, bodyFont(doc), 300, doc.page.width - 2 * MARGIN);
  ensureSpace(doc, SIGNATURE_BOX_HEIGHT + 50);
  doc.moveDown(0.8);
  paragraph(
    doc,
    tags,
    c.signedLine.replace('{signer}', () => signer),
  );
  const range = doc.bufferedPageRange();
  const box = { page: range.start + range.count - 1, x: MARGIN, y: doc.y + 10, width, height: SIGNATURE_BOX_HEIGHT, lines };
  doc.y = box.y + box.height;
  return box;
}

/** pdfkit's font object for Body, which draws the signature's appearance (pdfkit's types do not show it). */
function bodyFont(doc: PDFKit.PDFDocument): PdfKitFont {
  return (doc.font('Body') as unknown as { _font: PdfKitFont })._font;
}

/**
 * On every page (written last, when the page count is known): the test and specimen marks at the top of each page
 * after the first (the first has them as content), so no page of such a report passes for evidence on its own, and
 * the transaction id and page number at the foot.
 */
function writePageFurniture(doc: PDFKit.PDFDocument, tags: Tags, r: EvidenceReport, t: ReportMessages, c: ReportCheckMessages): void {
  const range = doc.bufferedPageRange();
  const marks = markTexts(r, c);
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    const width = doc.page.width - 2 * MARGIN;
    // Writing inside the bottom margin would make pdfkit open a new page.
    doc.page.margins.bottom = 0;
    if (i > range.start) pageMarks(doc, marks, (draw) => tags.artifact(draw, 'Pagination'));
    const text = t.footer
      .replace('{tid}', r.tid)
      .replace('{page}', String(i + 1))
      .replace('{pages}', String(range.count));
    tags.artifact(
      () =>
        doc
          .font('Body')
          .fontSize(8)
          .fillColor('#444444')
          .text(text, MARGIN, doc.page.height - 35, { width, align: 'center', lineBreak: false }),
      'Pagination',
    );
    doc.page.margins.bottom = bottom;
  }
  doc.fillColor('black');
}

function collect(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}
