import { byteRangeDigest, cadesDetachedSignature, type PadesSigner } from './cades.js';
import { signatureAppearance, type PdfKitFont, type SignatureBox } from './signature-appearance.js';

/** Written where the numbers of /ByteRange go, and as wide as they may become (four 10-digit numbers and spaces). */
const BYTE_RANGE_PLACEHOLDER = '**********';
const BYTE_RANGE_TEXT = `/ByteRange [0 /${BYTE_RANGE_PLACEHOLDER} /${BYTE_RANGE_PLACEHOLDER} /${BYTE_RANGE_PLACEHOLDER}]`;

/** The slice of pdfkit's document this module uses (pdfkit has no signature support of its own). */
interface PdfKitForSigning {
  ref(data: Record<string, unknown>): { data: Record<string, unknown>; end(chunk?: string): void };
  _root: { data: Record<string, unknown> };
  page: { dictionary: unknown; annotations: unknown[]; height: number };
  endAcroForm(): unknown;
}

/** Room kept in /Contents for the CMS: the chain, the signature and attributes, with a margin. */
export function signatureRoom(signer: PadesSigner): number {
  return 4096 + signer.chain.reduce((n, c) => n + c.length, 0);
}

/**
 * Adds a visible signature field in `box` on the current page (switch to `box.page` first) with a signature
 * dictionary whose /ByteRange and /Contents are placeholders: `/SubFilter /ETSI.CAdES.detached` (PAdES B-B), `/M`
 * the signing time (PAdES puts it here, not in the CMS). `signPlaceholder` fills both once the file is written.
 * The widget has an appearance (PDF/A asks one of every annotation) drawn with `font`, an embedded font.
 */
export function addSignaturePlaceholder(doc: PdfKitForSigning, room: number, signedAt: Date, name: string, box: SignatureBox, font: PdfKitFont): void {
  const signature = doc.ref({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: 'ETSI.CAdES.detached',
    // pdfkit writes a string primitive as a name: /********** keeps the width of a 10-digit number.
    ByteRange: [0, BYTE_RANGE_PLACEHOLDER, BYTE_RANGE_PLACEHOLDER, BYTE_RANGE_PLACEHOLDER],
    Contents: new Uint8Array(room),
    M: signedAt,
    Name: new String(name),
  });
  signature.end();
  const widget = doc.ref({
    Type: 'Annot',
    Subtype: 'Widget',
    FT: 'Sig',
    T: new String('Evidence signature'),
    V: signature,
    // PDF coordinates (from the page's bottom left). Printed and neither hidden nor invisible (PDF/A, ISO
    // 19005-1 §6.5.3), and locked; the appearance holds only /N, as PDF/A asks.
    Rect: [box.x, doc.page.height - box.y - box.height, box.x + box.width, doc.page.height - box.y],
    F: 4 | 128,
    AP: { N: signatureAppearance(doc, box, font) },
    P: doc.page.dictionary,
  });
  widget.end();
  doc.page.annotations.push(widget);
  const form = doc.ref({ Fields: [widget], SigFlags: 3 });
  form.end();
  doc._root.data.AcroForm = form;
  // pdfkit's own form finishing expects its text-field fonts; this form has only the signature field.
  doc.endAcroForm = () => doc;
}

/**
 * Fills the placeholders of a written PDF: /ByteRange covers everything but the /Contents hex string, the
 * CAdES signature over those bytes goes into /Contents. Lengths never change, so the cross-reference table stays
 * right. Throws when the placeholders are missing or the signature does not fit.
 */
export async function signPlaceholder(pdf: Buffer, signer: PadesSigner, room: number): Promise<Buffer> {
  const rangeAt = pdf.indexOf(BYTE_RANGE_TEXT, 0, 'latin1');
  const hole = `<${'00'.repeat(room)}>`;
  const contentsAt = pdf.indexOf(hole, 0, 'latin1');
  if (rangeAt < 0 || contentsAt < 0 || pdf.indexOf(hole, contentsAt + 1, 'latin1') >= 0)
    throw new Error('signature placeholders not found (exactly once) in the written PDF');
  const afterContents = contentsAt + hole.length;
  const range: [number, number, number, number] = [0, contentsAt, afterContents, pdf.length - afterContents];
  const rangeText = `/ByteRange [${range.join(' ')}`;
  if (rangeText.length + 1 > BYTE_RANGE_TEXT.length) throw new Error('PDF too large for the /ByteRange placeholder');
  const signed = Buffer.from(pdf);
  signed.write(`${rangeText.padEnd(BYTE_RANGE_TEXT.length - 1, ' ')}]`, rangeAt, 'latin1');
  const cms = await cadesDetachedSignature(byteRangeDigest(signed, range), signer);
  if (cms.length > room) throw new Error(`the CMS signature (${cms.length} bytes) does not fit the ${room} bytes reserved`);
  signed.write(cms.toString('hex'), contentsAt + 1, 'latin1');
  return signed;
}
