import { TARGET_FAR } from '../../../libs/face/src/levels/match-levels.js';
import { reportMessagesFor, type ClaimLabels, type ReportLocale, type ReportMessages } from '../../i18n/auth-files-report-messages.js';
import { documentMetadata, type MerchantMetadata } from './document-metadata.js';
import type { PdfAMode } from '../dto/fetch-auth-file.dto.js';
import { reportFonts } from './fonts.js';
import type { PadesSigner } from '../signing/cades.js';
import { addSignaturePlaceholder, signatureRoom, signPlaceholder } from '../signing/pades.js';
import { SIGNATURE_BOX_HEIGHT, signatureBoxWidth, signerName, type PdfKitFont, type SignatureBox } from '../signing/signature-appearance.js';
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
  /** PDF/A (spec 4.8 pdf-a-mode): never with encryption (the request refuses the combination). */
  pdfA?: PdfAMode;
}

/**
 * pdfkit's PDF/A modes: fonts embedded (ours always are; a CIDSet for part 1), the XMP identification
 * (pdfaid:part and conformance) and an sRGB output intent (the ICC's sRGB2014 profile shipped in pdfkit's
 * package). PDF/A-2 and -3 are claimed at level B; 1a is tagged as well.
 */
const PDFKIT_SUBSET: Record<PdfAMode, string> = { 'PDF/A-1a': 'PDF/A-1a', 'PDF/A-1b': 'PDF/A-1b', 'PDF/A-2': 'PDF/A-2b', 'PDF/A-3': 'PDF/A-3b' };

const MARGIN = 50;
const LABEL_WIDTH = 170;
const PASS_COLOUR = '#1b5e20';
const FAIL_COLOUR = '#b71c1c';

/** The evidence report of spec 4.8 as PDF bytes: one page, two with photos or a long addendum. */
export async function renderEvidenceReport(report: EvidenceReport, layout: ReportLayout): Promise<Buffer> {
  const t = reportMessagesFor(layout.locale);
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
    pdfVersion: encryption?.keyBits === 256 || layout.pdfA === 'PDF/A-2' || layout.pdfA === 'PDF/A-3' ? '1.7' : encryption && !encryption.encryptMetadata ? '1.5' : '1.4',
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
  writeContent(doc, tags, report, t, layout.locale);
  const signatureBox = layout.pades ? reserveSignatureBox(doc, t, signerName(layout.pades.chain[0]), dateTime(report.generatedAt, layout.locale)) : undefined;
  writeFooters(doc, tags, report.tid, t);
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
 * The tagged structure of PDF/A-1a (ISO 19005-1 §6.8): every piece of text or picture is a structure element
 * under one /Document (H1, H2, P, Figure with its Alt text), and what only decorates (the result banner's fill,
 * rules, the page footers) is an artifact. Without tagging, both just draw.
 */
class Tags {
  private readonly root?: PDFKit.PDFStructureElement;

  constructor(private readonly doc: PDFKit.PDFDocument, tagged: boolean) {
    if (!tagged) return;
    this.root = doc.struct('Document');
    doc.addStructure(this.root);
  }

  element(type: 'H1' | 'H2' | 'P' | 'Figure', draw: () => void, alt?: string): void {
    if (!this.root) return draw();
    this.root.add(this.doc.struct(type, alt ? { alt } : {}, draw));
  }

  artifact(draw: () => void, type: 'Layout' | 'Pagination' = 'Layout'): void {
    if (!this.root) return draw();
    this.doc.markContent('Artifact', { type });
    draw();
    this.doc.endMarkedContent();
  }

  end(): void {
    this.root?.end();
  }
}

function writeContent(doc: PDFKit.PDFDocument, tags: Tags, r: EvidenceReport, t: ReportMessages, locale: ReportLocale): void {
  const width = doc.page.width - 2 * MARGIN;
  tags.element('H1', () => doc.font('Bold').fontSize(18).text(t.title, MARGIN, MARGIN, { width }));
  tags.element('P', () => doc.moveDown(0.3).font('Body').fontSize(9).fillColor('#444444').text(t.intro, { width }).fillColor('black'));
  doc.moveDown(0.8);

  const top = doc.y;
  tags.artifact(() => doc.rect(MARGIN, top, width, 30).fill(r.result === 'pass' ? PASS_COLOUR : FAIL_COLOUR));
  tags.element('P', () => doc.fillColor('white').font('Bold').fontSize(13).text(`${t.result}: ${r.result === 'pass' ? t.pass : t.fail}`, MARGIN + 10, top + 8, { width: width - 20 }));
  doc.fillColor('black');
  doc.y = top + 40;
  row(doc, tags, t.verifiedAt, dateTime(r.completedAt, locale));
  row(doc, tags, t.transactionId, r.tid);
  if (r.explanations.length) row(doc, tags, t.claims.result_explanation, r.explanations.join(', '));
  if (r.eidasHigh) row(doc, tags, '', t.eidasHigh);

  heading(doc, tags, t.attributes);
  if (r.attributes.length === 0) tags.element('P', () => doc.font('Body').fontSize(10).text(t.noAttributes, MARGIN, doc.y, { width }));
  for (const a of r.attributes) row(doc, tags, t.claims[a.name], a.value);

  heading(doc, tags, t.faceMatch);
  const level = r.facematchLevel;
  const far = level >= 1 && level <= 9 ? t.falseAcceptance.replace('{n}', new Intl.NumberFormat(locale).format(Math.round(1 / TARGET_FAR[level as 1]))) : t.nonMatch;
  row(doc, tags, t.faceMatchLevel, r.faceStepRan ? `${level} (${far})` : '–');

  if (r.photos.length) photos(doc, tags, r.photos, t);

  if (r.addendum.length) {
    heading(doc, tags, t.addendum);
    for (const [key, value] of r.addendum) row(doc, tags, key, value);
  }
  doc.moveDown(1);
  tags.element('P', () => doc.font('Body').fontSize(8).fillColor('#444444').text(`${t.generatedAt}: ${dateTime(r.generatedAt, locale)}`, MARGIN, doc.y, { width }).fillColor('black'));
}

/** Keeps a heading with at least a row under it. */
function heading(doc: PDFKit.PDFDocument, tags: Tags, text: string): void {
  ensureSpace(doc, 60);
  doc.moveDown(0.8);
  const width = doc.page.width - 2 * MARGIN;
  tags.element('H2', () => doc.font('Bold').fontSize(12).text(text, MARGIN, doc.y, { width }));
  tags.artifact(() => doc.moveTo(MARGIN, doc.y + 1).lineTo(MARGIN + width, doc.y + 1).lineWidth(0.5).strokeColor('#888888').stroke());
  doc.y += 6;
}

/** A label and its value side by side; a long value wraps in its column. */
function row(doc: PDFKit.PDFDocument, tags: Tags, label: string, value: string): void {
  ensureSpace(doc, 28);
  const y = doc.y;
  const valueWidth = doc.page.width - 2 * MARGIN - LABEL_WIDTH;
  let labelBottom = y;
  if (label)
    tags.element('P', () => {
      doc.font('Bold').fontSize(9).text(label, MARGIN, y, { width: LABEL_WIDTH - 10 });
      labelBottom = doc.y;
    });
  tags.element('P', () => doc.font('Body').fontSize(10).text(value, MARGIN + LABEL_WIDTH, y, { width: valueWidth }));
  doc.y = Math.max(labelBottom, doc.y) + 3;
}

function photos(doc: PDFKit.PDFDocument, tags: Tags, list: EvidenceReport['photos'], t: ReportMessages): void {
  heading(doc, tags, t.photos);
  ensureSpace(doc, 230);
  const top = doc.y;
  list.forEach((p, i) => {
    const x = MARGIN + i * 180;
    const caption = p.kind === 'document' ? t.documentPhoto : t.selfie;
    tags.element('Figure', () => doc.image(p.jpeg, x, top, { fit: [150, 190], align: 'center', valign: 'center' }), caption);
    tags.element('P', () => doc.font('Body').fontSize(8).text(caption, x, top + 195, { width: 150, align: 'center' }));
  });
  doc.x = MARGIN;
  doc.y = top + 215;
}

/**
 * Keeps room under the content of the last page for the visible signature (its widget is added once the page is
 * laid out): who signed and when, so a printed copy shows it was signed.
 */
function reserveSignatureBox(doc: PDFKit.PDFDocument, t: ReportMessages, signer: string, date: string): SignatureBox {
  const lines = t.signedBy.replace('{signer}', () => signer).replace('{date}', () => date).split('\n');
  const width = signatureBoxWidth(lines, bodyFont(doc), 300, doc.page.width - 2 * MARGIN);
  ensureSpace(doc, SIGNATURE_BOX_HEIGHT + 12);
  const range = doc.bufferedPageRange();
  const box = { page: range.start + range.count - 1, x: MARGIN, y: doc.y + 10, width, height: SIGNATURE_BOX_HEIGHT, lines };
  doc.y = box.y + box.height;
  return box;
}

/** pdfkit's font object for Body, which draws the signature's appearance (pdfkit's types do not show it). */
function bodyFont(doc: PDFKit.PDFDocument): PdfKitFont {
  return (doc.font('Body') as unknown as { _font: PdfKitFont })._font;
}

function ensureSpace(doc: PDFKit.PDFDocument, points: number): void {
  if (doc.y + points > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

/** The transaction id and page number at the foot of every page (written last, when the page count is known). */
function writeFooters(doc: PDFKit.PDFDocument, tags: Tags, tid: string, t: ReportMessages): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    // Writing inside the bottom margin would make pdfkit open a new page.
    doc.page.margins.bottom = 0;
    const text = t.footer.replace('{tid}', tid).replace('{page}', String(i + 1)).replace('{pages}', String(range.count));
    tags.artifact(() => doc.font('Body').fontSize(8).fillColor('#444444').text(text, MARGIN, doc.page.height - 35, { width: doc.page.width - 2 * MARGIN, align: 'center', lineBreak: false }), 'Pagination');
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
