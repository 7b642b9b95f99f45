/** ISO/IEC 19794-5:2005 face image record ("FAC\0" format), as stored in DG2 tag 5F2E (9303-10 §4.7.2). */
import { Icao9303Error } from '../../errors.js';
import { ascii } from '../../util/bytes.js';
import { sniffImage, type ImageType } from './image.js';

export interface FaceImage {
  /** the encoded image, byte-exact */
  imageData: Uint8Array;
  imageType: ImageType;
  width?: number;
  height?: number;
  /** which biometric data format the record used */
  format: 'ISO19794-5' | 'ISO39794-5';
  /** format-specific metadata (gender, eye colour, face image type, colour space, …) */
  metadata: Record<string, number | string>;
}

const FIELD = 'DG2.ISO19794-5';

export function parseIso19794FaceRecord(b: Uint8Array): FaceImage[] {
  const fail = (m: string) => new Icao9303Error('BIOMETRIC_MALFORMED', FIELD, m);
  if (b.length < 14 || ascii(b.subarray(0, 4)) !== 'FAC\0') throw fail('missing "FAC\\0" format identifier (19794-5 §5.4.1)');
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const version = ascii(b.subarray(4, 7));
  const recordLength = dv.getUint32(8);
  if (recordLength > b.length) throw fail(`record length ${recordLength} exceeds ${b.length} bytes`);
  const count = dv.getUint16(12);
  const faces: FaceImage[] = [];
  let p = 14;
  for (let i = 0; i < count; i++) {
    if (p + 32 > b.length) throw fail(`facial record ${i + 1} truncated`);
    const blockLength = dv.getUint32(p);
    const featurePoints = dv.getUint16(p + 4);
    const imageInfo = p + 20 + featurePoints * 8;
    const imageStart = imageInfo + 12;
    const blockEnd = p + blockLength;
    if (blockLength < 32 || blockEnd > b.length || imageStart > blockEnd) throw fail(`facial record ${i + 1} length ${blockLength} inconsistent`);
    const imageData = b.slice(imageStart, blockEnd);
    const dataType = b[imageInfo + 1];
    const sniffed = sniffImage(imageData, `${FIELD}.imageData`);
    // 19794-5 §5.7.2: image data type 0 = JPEG, 1 = JPEG 2000
    const declared = dataType === 0 ? 'JPEG' : dataType === 1 ? 'JPEG2000' : 'other';
    faces.push({
      imageData,
      imageType: sniffed.type,
      width: sniffed.width ?? dv.getUint16(imageInfo + 2),
      height: sniffed.height ?? dv.getUint16(imageInfo + 4),
      format: 'ISO19794-5',
      metadata: {
        version,
        gender: b[p + 6],
        eyeColour: b[p + 7],
        hairColour: b[p + 8],
        expression: dv.getUint16(p + 12),
        featurePoints,
        declaredWidth: dv.getUint16(imageInfo + 2),
        declaredHeight: dv.getUint16(imageInfo + 4),
        faceImageType: b[imageInfo],
        declaredImageDataType: declared,
        colourSpace: b[imageInfo + 6],
        sourceType: b[imageInfo + 7],
        deviceType: dv.getUint16(imageInfo + 8),
        quality: dv.getUint16(imageInfo + 10),
      },
    });
    p = blockEnd;
  }
  return faces;
}
