/**
 * Returns the contiguous codestream ('jp2c' box) of a JP2 file, or the input if it is already
 * a raw codestream. ICAO DG2 photos are usually JP2 files; the codec only needs the codestream.
 */
export function extractJ2kCodestream(bytes: Uint8Array): Uint8Array {
  if (bytes[0] === 0xff && bytes[1] === 0x4f) return bytes;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    let length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    let headerLength = 8;
    if (length === 1) {
      if (offset + 16 > bytes.length) break;
      length = Number(view.getBigUint64(offset + 8));
      headerLength = 16;
    } else if (length === 0) {
      length = bytes.length - offset; // box runs to end of file
    }
    if (length < headerLength || offset + length > bytes.length) break;
    if (type === 'jp2c') return bytes.subarray(offset + headerLength, offset + length);
    offset += length;
  }
  throw new RangeError('JP2 file has no contiguous codestream box');
}
