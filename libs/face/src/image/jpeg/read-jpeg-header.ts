import { FaceError } from '../../errors.js';

/** What a JPEG declares in its header segments (ITU-T T.81 Annex B), before any entropy-coded data. */
export interface JpegHeader {
  width: number;
  height: number;
  /** Nf: image components (1 grey, 3 colour, 4 CMYK or YCCK). */
  components: number;
  /** P: sample precision in bits. */
  bitDepth: number;
  /** The start-of-frame marker: it names the coding process (T.81 Table B.1). */
  sof: number;
  /** A DHP segment (§B.3.2) or a differential frame: the hierarchical process. */
  hierarchical: boolean;
  /** Σ Hi × Vi over the components: the blocks of an MCU interleaving them all (§A.2.3, at most 10 in a scan: §B.2.3). */
  mcuBlocks: number;
}

/** Start-of-frame markers (T.81 §B.1.1.3, Table B.1): C0-CF except DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
/** Differential frames (SOF5-7, SOF13-15) exist only in the hierarchical process (Table B.1). */
const isDifferential = (marker: number) => (marker >= 0xc5 && marker <= 0xc7) || marker >= 0xcd;

const bad = (message: string) => new FaceError('BAD_IMAGE', message);

/**
 * Walks the marker segments from SOI to the first scan header (T.81 §B.2.1: tables and miscellaneous segments,
 * the frame header, the scan header) and reads the frame header; the entropy-coded data after it is never read.
 * The walk ends at the first SOS, so a file whose header is cut short, has no frame header before its first scan,
 * or a second frame header, is refused here (FaceError BAD_IMAGE) and never reaches a decoder.
 */
export function readJpegHeader(bytes: Uint8Array): JpegHeader {
  let frame: Omit<JpegHeader, 'hierarchical'> | undefined;
  let ids: number[] = [];
  let hierarchical = false;
  let offset = 2; // after SOI
  for (;;) {
    if (offset + 2 > bytes.length) throw bad('JPEG header is cut short before its first scan');
    if (bytes[offset] !== 0xff) throw bad('JPEG marker expected');
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset++; // fill byte before a marker (§B.1.1.2)
      continue;
    }
    // TEM and RSTn stand alone (§B.1.1.4, Table B.1); a stray one is harmless here, as in the decoder.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    if (marker === 0xd8) throw bad('JPEG has a second SOI');
    if (marker === 0xd9) throw bad('JPEG ends (EOI) before its first scan');
    if (offset + 4 > bytes.length) throw bad('JPEG header is cut short before its first scan');
    // Every other marker opens a segment whose length counts its own two bytes (§B.1.1.4).
    const length = (bytes[offset + 2] << 8) | bytes[offset + 3];
    if (length < 2 || offset + 2 + length > bytes.length) throw bad('JPEG header segment is cut short');
    const segment = bytes.subarray(offset + 4, offset + 2 + length);
    if (isStartOfFrame(marker)) {
      // One frame in the non-hierarchical processes (§B.2.1); in the hierarchical one, frames follow scans.
      if (frame) throw bad('JPEG has a second frame header before its first scan');
      ({ frame, ids } = readFrameHeader(marker, segment));
    } else if (marker === 0xde) {
      hierarchical = true;
    } else if (marker === 0xdc) {
      throw bad('JPEG has a DNL segment before its first scan'); // DNL follows the first scan only (§B.2.5)
    } else if (marker === 0xda) {
      if (!frame) throw bad('JPEG has no frame header (SOF) before its first scan');
      checkScanHeader(segment, ids);
      return { ...frame, hierarchical: hierarchical || isDifferential(frame.sof) };
    }
    offset += 2 + length;
  }
}

/**
 * The frame header (§B.2.2, Figure B.3): P, Y (lines; 0 = set later by DNL), X (samples per line, 1 or more), Nf,
 * then Ci, Hi/Vi (1-4 each), Tqi (0-3) per component, each Ci once; Lf = 8 + 3 × Nf. Precision and the number of
 * components are read, not judged: which of them are decoded is the decoder's policy (decode-limits.ts).
 */
function readFrameHeader(sof: number, segment: Uint8Array): { frame: Omit<JpegHeader, 'hierarchical'>; ids: number[] } {
  if (segment.length < 6) throw bad('JPEG frame header is cut short');
  const bitDepth = segment[0];
  const height = (segment[1] << 8) | segment[2];
  const width = (segment[3] << 8) | segment[4];
  const components = segment[5];
  if (components < 1) throw bad('JPEG frame header declares no components');
  if (segment.length < 6 + 3 * components) throw bad('JPEG frame header is shorter than its components');
  const ids: number[] = [];
  let mcuBlocks = 0;
  for (let i = 0; i < components; i++) {
    const [id, sampling, tq] = segment.subarray(6 + 3 * i, 9 + 3 * i);
    const [h, v] = [sampling >> 4, sampling & 15];
    if (h < 1 || h > 4 || v < 1 || v > 4) throw bad(`JPEG component ${i + 1} has sampling factors ${h}x${v} (1 to 4 each)`);
    if (tq > 3) throw bad(`JPEG component ${i + 1} names quantization table ${tq} (0 to 3)`);
    if (ids.includes(id)) throw bad('JPEG frame header names a component twice');
    ids.push(id);
    mcuBlocks += h * v;
  }
  // A single component is never interleaved: its MCU is one block whatever its factors (§A.2.2).
  return { frame: { sof, bitDepth, height, width, components, mcuBlocks: components === 1 ? 1 : mcuBlocks }, ids };
}

/** The first scan header (§B.2.3, Figure B.4): Ns of 1-4 components of the frame, each once; Ls = 6 + 2 × Ns. */
function checkScanHeader(segment: Uint8Array, ids: number[]): void {
  const count = segment[0];
  if (!(count >= 1 && count <= 4) || segment.length < 4 + 2 * count) throw bad('JPEG scan header is malformed or cut short');
  const named = new Set<number>();
  for (let i = 0; i < count; i++) named.add(segment[1 + 2 * i]);
  if (named.size !== count || [...named].some((id) => !ids.includes(id))) throw bad('JPEG scan header names an unknown or repeated component');
}
