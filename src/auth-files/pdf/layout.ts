import type { ReportLocale } from '../../i18n/auth-files-report-messages.js';

export const MARGIN = 50;
const LABEL_WIDTH = 170;
export const PASS_COLOUR = '#1b5e20';
export const FAIL_COLOUR = '#b71c1c';
/** A check that passed with a warning: dark amber, readable on white (about 7:1). */
export const WARNING_COLOUR = '#8a4b00';
export const NOTE_COLOUR = '#444444';

/**
 * The tagged structure of PDF/A-1a (ISO 19005-1 §6.8): every piece of text or picture is a structure element
 * under one /Document (H1, H2, P, Figure with its Alt text), and what only decorates (the result banner's fill,
 * rules, the page headers and footers) is an artifact. Without tagging, both just draw.
 */
export class Tags {
  private readonly root?: PDFKit.PDFStructureElement;

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    tagged: boolean,
  ) {
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

/**
 * A heading, kept on one page with the first `next` points of what follows it (the first row's or block's height,
 * measured by the caller): a heading is never the last thing on a page.
 */
export function heading(doc: PDFKit.PDFDocument, tags: Tags, text: string, next: number): void {
  doc.font('Bold').fontSize(12);
  const own = doc.currentLineHeight(true) * 1.8 + doc.heightOfString(text, { width: doc.page.width - 2 * MARGIN }) + 6;
  ensureSpace(doc, own + next);
  doc.moveDown(0.8);
  const width = doc.page.width - 2 * MARGIN;
  tags.element('H2', () => doc.font('Bold').fontSize(12).text(text, MARGIN, doc.y, { width }));
  tags.artifact(() =>
    doc
      .moveTo(MARGIN, doc.y + 1)
      .lineTo(MARGIN + width, doc.y + 1)
      .lineWidth(0.5)
      .strokeColor('#888888')
      .stroke(),
  );
  doc.y += 6;
}

/** The height row() gives a label and its value (the taller of the two columns, and the gap under them). */
export function rowHeight(doc: PDFKit.PDFDocument, label: string, value: string): number {
  const labelHeight = label
    ? doc
        .font('Bold')
        .fontSize(9)
        .heightOfString(label, { width: LABEL_WIDTH - 10 })
    : 0;
  const valueHeight = doc
    .font('Body')
    .fontSize(10)
    .heightOfString(value, { width: doc.page.width - 2 * MARGIN - LABEL_WIDTH });
  return Math.max(labelHeight, valueHeight) + 3;
}

/** The height note() gives a text. */
export function noteHeight(doc: PDFKit.PDFDocument, text: string): number {
  return (
    doc
      .font('Body')
      .fontSize(8)
      .heightOfString(text, { width: doc.page.width - 2 * MARGIN - LABEL_WIDTH }) + 3
  );
}

/** A label and its value side by side, on one page; a long value wraps in its column. */
export function row(doc: PDFKit.PDFDocument, tags: Tags, label: string, value: string, colour = 'black'): void {
  ensureSpace(doc, rowHeight(doc, label, value));
  const y = doc.y;
  const valueWidth = doc.page.width - 2 * MARGIN - LABEL_WIDTH;
  let labelBottom = y;
  if (label)
    tags.element('P', () => {
      doc
        .font('Bold')
        .fontSize(9)
        .text(label, MARGIN, y, { width: LABEL_WIDTH - 10 });
      labelBottom = doc.y;
    });
  tags.element('P', () =>
    doc
      .font('Body')
      .fontSize(10)
      .fillColor(colour)
      .text(value, MARGIN + LABEL_WIDTH, y, { width: valueWidth })
      .fillColor('black'),
  );
  doc.y = Math.max(labelBottom, doc.y) + 3;
}

/** Small grey text under the value column: what a row's value needs said about it. */
export function note(doc: PDFKit.PDFDocument, tags: Tags, text: string): void {
  const width = doc.page.width - 2 * MARGIN - LABEL_WIDTH;
  tags.element('P', () =>
    doc
      .font('Body')
      .fontSize(8)
      .fillColor(NOTE_COLOUR)
      .text(text, MARGIN + LABEL_WIDTH, doc.y, { width })
      .fillColor('black'),
  );
  doc.y += 3;
}

/** Body text across the page. */
export function paragraph(doc: PDFKit.PDFDocument, tags: Tags, text: string, size = 9): void {
  ensureSpace(doc, 30);
  const width = doc.page.width - 2 * MARGIN;
  tags.element('P', () => doc.font('Body').fontSize(size).fillColor(NOTE_COLOUR).text(text, MARGIN, doc.y, { width }).fillColor('black'));
}

/** The test and specimen marks, one centred red line each in the top margin of a page. */
export function pageMarks(doc: PDFKit.PDFDocument, marks: readonly string[], wrap: (draw: () => void) => void): void {
  const width = doc.page.width - 2 * MARGIN;
  marks.forEach((mark, k) =>
    wrap(() =>
      doc
        .font('Bold')
        .fontSize(9)
        .fillColor(FAIL_COLOUR)
        .text(mark, MARGIN, 14 + 12 * k, { width, align: 'center', lineBreak: false }),
    ),
  );
  doc.fillColor('black');
}

export function ensureSpace(doc: PDFKit.PDFDocument, points: number): void {
  if (doc.y + points > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

export function dateTime(d: Date, locale: ReportLocale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }).format(d);
}
