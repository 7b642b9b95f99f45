/**
 * ISO/IEC 39794-5:2019 face image data block (tagged BER), as stored in DG2 tag 7F2E (9303-10 §4.7.2,
 * LDS 1.8 / 39794 migration). We walk the tagged structure: FaceImageDataBlock [APPLICATION 5] →
 * representationBlocks [1] → RepresentationBlock → imageRepresentation [1] → base2D [0] →
 * representationData2D [0] (the image) and imageInformation2DBlock [1] (format code, image size).
 */
import { Icao9303Error } from '../../errors.js';
import { findTlv, readTlv, readTlvList, type Tlv } from '../../util/tlv.js';
import { sniffImage } from './image.js';
import type { FaceImage } from './iso19794.js';

const FIELD = 'DG2.ISO39794-5';
const fail = (m: string) => new Icao9303Error('BIOMETRIC_MALFORMED', FIELD, m);
const FORMAT_CODES: Record<number, string> = { 0: 'unknown', 1: 'other', 2: 'JPEG', 3: 'JPEG2000_LOSSY', 4: 'JPEG2000_LOSSLESS', 5: 'PNG', 6: 'PGM', 7: 'PPM' };

const uint = (v: Uint8Array) => v.reduce((n, x) => n * 256 + x, 0);
const children = (t: Tlv) => readTlvList(t.value, FIELD);

export function parseIso39794FaceRecord(b: Uint8Array): FaceImage[] {
  let top = readTlv(b, 0, FIELD);
  if (top.tag === 0xa1) top = readTlv(top.value, 0, FIELD); // outer CHOICE wrapper seen in DG2 7F2E
  if (top.tag !== 0x65) throw fail(`expected FaceImageDataBlock [APPLICATION 5], found tag ${top.tag.toString(16)}`);
  const items = children(top);
  const version = findTlv(items, 0xa0);
  const reps = findTlv(items, 0xa1);
  if (!reps) throw fail('missing representationBlocks [1]');
  const faces: FaceImage[] = [];
  for (const rep of children(reps)) {
    const repItems = children(rep);
    const imageRep = findTlv(repItems, 0xa1);
    if (!imageRep) throw fail('representation without imageRepresentation [1]');
    const block = find2dBlock(imageRep);
    const data = findTlv(block, 0x80);
    if (!data) throw fail('missing representationData2D [0]');
    const info = findTlv(block, 0xa1);
    const infoItems = info ? children(info) : [];
    const fmt = findTlv(infoItems, 0xa0);
    const fmtCode = fmt ? findTlv(children(fmt), 0x80) : undefined;
    const size = findTlv(infoItems, 0xa7);
    const sizeItems = size ? children(size) : [];
    const imageData = data.value.slice();
    const sniffed = sniffImage(imageData, `${FIELD}.representationData2D`);
    const w = findTlv(sizeItems, 0x80);
    const h = findTlv(sizeItems, 0x81);
    faces.push({
      imageData,
      imageType: sniffed.type,
      // dimensions of the encoded image itself; the declared imageSizeBlock is kept in metadata
      width: sniffed.width ?? (w ? uint(w.value) : undefined),
      height: sniffed.height ?? (h ? uint(h.value) : undefined),
      format: 'ISO39794-5',
      metadata: {
        ...(version ? versionOf(version) : {}),
        ...(w && h ? { declaredWidth: uint(w.value), declaredHeight: uint(h.value) } : {}),
        ...(fmtCode ? { imageDataFormat: FORMAT_CODES[uint(fmtCode.value)] ?? String(uint(fmtCode.value)) } : {}),
      },
    });
  }
  if (faces.length === 0) throw fail('no representation blocks');
  return faces;
}

/** Descends through base2D [0] wrappers until the block holding representationData2D [0] (primitive). */
function find2dBlock(imageRep: Tlv): Tlv[] {
  let current = children(imageRep);
  for (let depth = 0; depth < 4; depth++) {
    if (current.some((t) => t.tag === 0x80 && !t.constructed)) return current;
    const next = findTlv(current, 0xa0);
    if (!next) break;
    current = children(next);
  }
  throw fail('no base2D image representation');
}

function versionOf(v: Tlv): Record<string, number> {
  const items = children(v);
  const g = findTlv(items, 0x80);
  const y = findTlv(items, 0x81);
  return { ...(g ? { generation: uint(g.value) } : {}), ...(y ? { year: uint(y.value) } : {}) };
}
