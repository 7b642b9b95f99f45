import jpeg from 'jpeg-js';
import type { VerificationRecordData } from '../../src/broker/spi/document-evidence/verification-record.js';

/** A small JPEG (a smooth gradient, `seed` shifting its colours) standing in for a face picture. */
export function sampleJpeg(width = 240, height = 320, seed = 0): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = (x + seed) & 255;
      data[i + 1] = (y + 2 * seed) & 255;
      data[i + 2] = (x + y) & 255;
      data[i + 3] = 255;
    }
  return Buffer.from(jpeg.encode({ data, width, height }, 85).data);
}

/**
 * A verification record as the verifier seals it, without running a verification: for tests of the auth-files
 * access rules and file formats, where the chip and face steps are not what is under test.
 */
export function sampleRecord(clientId: string, overrides: Partial<VerificationRecordData> = {}): VerificationRecordData {
  return {
    clientId,
    documentPhoto: sampleJpeg().toString('base64'),
    documentPhotoType: 'image/jpeg',
    selfie: sampleJpeg(240, 320, 90).toString('base64'),
    selfieEmbedding: [],
    claims: { primary_identifier: 'NORDMANN', secondary_identifier: 'KAARE', document_number: 'FH7654321', birthdate: '1980-01-15', nationality: 'NOR' },
    subject: 'sample-subject',
    result: 'pass',
    explanations: [],
    facematchLevel: 6,
    eidasHigh: true,
    completedAt: '2025-03-04T05:06:07.000Z',
    failures: [],
    scopes: ['openid', 'profile'],
    ...overrides,
  };
}
