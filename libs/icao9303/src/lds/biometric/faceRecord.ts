/** Parses a bare biometric face record (no DG2 wrapper): ISO/IEC 19794-5 ("FAC\0") or ISO/IEC 39794-5 (tagged BER). */
import { guard } from '../../errors.js';
import { parseIso19794FaceRecord, type FaceImage } from './iso19794.js';
import { parseIso39794FaceRecord } from './iso39794.js';

export function parseFaceRecord(bytes: Uint8Array): FaceImage[] {
  return guard('BIOMETRIC_MALFORMED', 'face record', () =>
    bytes[0] === 0x46 && bytes[1] === 0x41 && bytes[2] === 0x43 ? parseIso19794FaceRecord(bytes) : parseIso39794FaceRecord(bytes),
  );
}
