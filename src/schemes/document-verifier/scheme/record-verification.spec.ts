import type { VerificationRecordClaims } from '../../../broker/spi/document-evidence/verification-record.js';
import { recordVerification } from './record-verification.js';

const RECORD: VerificationRecordClaims = {
  clientId: 'shop',
  faceStepRan: true,
  claims: {
    document_type: 'ID_CARD',
    document_number: 'T22000129',
    issuing_country: 'D',
    interpreted_issuing_country: 'Germany',
    date_of_expiry: '31.10.2030',
    personal_number: '123',
  },
  subject: 's',
  result: 'pass',
  explanations: [],
  facematchLevel: 9,
  eidasHigh: true,
  cloneDetectionPassed: true,
  cloneDetection: 'chip-authentication',
  completedAt: '2026-11-29T11:00:00.000Z',
  failures: [],
};
const checks = (record: VerificationRecordClaims) => recordVerification('rec-1', record)!.evidence[0]!.check_details!.map((c) => c.check_id);

describe('what a document verification record states', () => {
  it('the record id as the transaction, its time, the document and each passed check under the id', () => {
    expect(recordVerification('rec-1', RECORD)).toEqual({
      time: '2026-11-29T11:00:00.000Z',
      process: 'rec-1',
      test: false,
      evidence: [
        {
          type: 'document',
          check_details: [
            { check_method: 'vcrypt', check_id: 'rec-1.passive-authentication', time: '2026-11-29T11:00:00.000Z' },
            { check_method: 'vcrypt', check_id: 'rec-1.chip-authentication', time: '2026-11-29T11:00:00.000Z' },
            { check_method: 'bvr', check_id: 'rec-1.face-match', time: '2026-11-29T11:00:00.000Z' },
            { check_method: 'bvr', check_id: 'rec-1.liveness', time: '2026-11-29T11:00:00.000Z' },
          ],
          document_details: {
            type: 'idcard',
            document_number: 'T22000129',
            personal_number: '123',
            date_of_expiry: '2030-10-31',
            issuer: { country_code: 'DEU', country: 'Germany' },
          },
        },
      ],
    });
  });

  it('no clone-detection check where the chip proved nothing; no face checks without a face step', () => {
    expect(checks({ ...RECORD, cloneDetectionPassed: false, cloneDetection: 'none' })).toEqual([
      'rec-1.passive-authentication',
      'rec-1.face-match',
      'rec-1.liveness',
    ]);
    expect(checks({ ...RECORD, faceStepRan: false })).toEqual(['rec-1.passive-authentication', 'rec-1.chip-authentication']);
  });

  it('nothing for a failed verification, and a specimen document is a test', () => {
    expect(recordVerification('rec-1', { ...RECORD, result: 'fail' })).toBeUndefined();
    expect(recordVerification('rec-1', { ...RECORD, specimen: true })!.test).toBe(true);
  });

  it('no document details for a document of no predefined type', () => {
    expect(recordVerification('rec-1', { ...RECORD, claims: { document_type: 'OTHER' } })!.evidence[0]).not.toHaveProperty('document_details');
  });
});
