import { X509Certificate } from 'node:crypto';

/** Where the visible signature goes (pdfkit's coordinates: points from the page's top left) and what it says. */
export interface SignatureBox {
  /** Index of the page among the document's buffered pages. */
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  lines: string[];
}

/** The slice of a pdfkit font this module uses: its font dictionary and glyph encoding (which adds the glyphs to the embedded subset). */
export interface PdfKitFont {
  ref(): unknown;
  encode(text: string): [string[], unknown];
  widthOfString(text: string, size: number): number;
}

interface PdfKitForAppearance {
  ref(data: Record<string, unknown>): { end(chunk?: string): void };
}

export const SIGNATURE_BOX_HEIGHT = 30;
const PADDING = 5;
const MAX_FONT_SIZE = 8;
const LINE_GAP = 2;

/** The signer's name for the visible signature: the common name of its certificate, else its whole subject. */
export function signerName(certificate: Buffer): string {
  const subject = new X509Certificate(certificate).subject;
  return /^CN=(.+)$/m.exec(subject)?.[1] ?? subject.replace(/\n/g, ', ');
}

/** A width for the box between `least` and `most` in which the lines fit at full size, when they can. */
export function signatureBoxWidth(lines: string[], font: PdfKitFont, least: number, most: number): number {
  const widest = Math.max(...lines.map((line) => font.widthOfString(line, MAX_FONT_SIZE)));
  return Math.min(most, Math.max(least, Math.ceil(widest + 2 * PADDING + 1)));
}

/**
 * The normal appearance (/AP /N) of the signature widget: a form XObject drawing a framed box with the lines of
 * text. PDF/A (ISO 19005-1 §6.5.3) asks every annotation for an appearance and every font for embedding, so the
 * text uses the report's embedded font (its glyphs join the subset pdfkit embeds when the document ends) and
 * shrinks to fit the box rather than overflow it.
 */
export function signatureAppearance(doc: PdfKitForAppearance, box: SignatureBox, font: PdfKitFont): unknown {
  const widest = Math.max(...box.lines.map((line) => font.widthOfString(line, MAX_FONT_SIZE)));
  const lineRoom = (box.height - 2 * PADDING) / box.lines.length - LINE_GAP;
  const size = Math.min(MAX_FONT_SIZE, lineRoom, (MAX_FONT_SIZE * (box.width - 2 * PADDING)) / widest);
  const lines = box.lines.map((line, i) => {
    const baseline = box.height - PADDING - (i + 1) * size - i * LINE_GAP + size * 0.2;
    return `BT /F1 ${n(size)} Tf 1 0 0 1 ${PADDING} ${n(baseline)} Tm <${font.encode(line)[0].join('')}> Tj ET`;
  });
  const content = [
    // A light fill and a thin frame, in RGB like the rest of the page (the output intent is sRGB).
    `q 0.95 0.97 0.95 rg 0.11 0.37 0.13 RG 0.75 w 0.375 0.375 ${n(box.width - 0.75)} ${n(box.height - 0.75)} re B Q`,
    '0.1 0.1 0.1 rg',
    ...lines,
  ].join('\n');
  const form = doc.ref({ Type: 'XObject', Subtype: 'Form', BBox: [0, 0, box.width, box.height], Resources: { Font: { F1: font.ref() } } });
  form.end(content);
  return form;
}

function n(value: number): string {
  return String(Math.round(value * 100) / 100);
}
