import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvidenceReport } from '../../src/auth-files/pdf/evidence-report.js';
import { reportChecks } from '../../src/auth-files/report/report-checks.js';

/** The levels the shipped face-api calibration validates (1-4 today); the others are extrapolated. */
export const SHIPPED_VALIDATED_LEVELS: number[] = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../libs/face/calibration/face-api-resnet128.json'), 'utf8'),
).validatedLevels;

const at = new Date('2025-06-02T09:30:00Z');
const base = {
  completedAt: at,
  generatedAt: new Date(at.getTime() + 120_000),
  issuer: 'Nordic ID Services AS',
  merchant: 'Evidence shop',
  validatedLevels: SHIPPED_VALIDATED_LEVELS,
  photos: [],
  addendum: [['Order', '4711']] as [string, string][],
};

/**
 * A passed verification of a real document as a live service reports it (no marks): a Norwegian passport whose
 * chip proved itself with Active Authentication, a face match at level 8 (above the validated levels), eIDAS high.
 */
export function passedReport(over: Partial<EvidenceReport> = {}): EvidenceReport {
  const level = over.facematchLevel ?? 8;
  return {
    ...base,
    tid: '0b7d6c2e-5a1f-4c7e-9a55-3f1d2b8e4a10',
    result: 'pass',
    marks: [],
    attributes: [
      { name: 'document_type', value: 'PASSPORT' },
      { name: 'issuing_country', value: 'NOR' },
      { name: 'interpreted_issuing_country', value: 'Norway', code: 'NOR' },
      { name: 'document_number', value: 'FH7654321' },
      { name: 'primary_identifier', value: 'NORDMANN' },
      { name: 'secondary_identifier', value: 'KAARE' },
      { name: 'nationality', value: 'NOR' },
      { name: 'interpreted_nationality', value: 'Norway', code: 'NOR' },
      { name: 'birthdate', value: '15.01.1980' },
      { name: 'gender', value: 'MALE' },
      { name: 'date_of_expiry', value: '01.01.2031' },
      { name: 'name', value: 'KÅRE NORDMANN' },
      { name: 'place_of_birth', value: 'OSLO' },
      { name: 'other_identifier', value: 'NORDMANN, KÅRE' },
      { name: 'authentication_sources', value: 'SDK_NFC, SDK_FACESCAN' },
    ],
    checks: reportChecks({ explanations: [], faceStepRan: true, cloneDetection: 'active-authentication', facematchLevel: level }),
    facematchLevel: level,
    eidasHigh: true,
    explanations: [],
    ...over,
  };
}

/**
 * A failed verification made in customer-test with a specimen document: a data group hash differs from the SOD, the
 * chip offers no clone detection, and the face step never ran. A failed report shows only the document's kind and state.
 */
export function failedReport(over: Partial<EvidenceReport> = {}): EvidenceReport {
  const explanations = ['STATUS_BAD_DOCUMENTHASHES'];
  return {
    ...base,
    tid: '6f0c1b9e-2d4a-4b8f-8e61-7a3c5d9e0f12',
    result: 'fail',
    marks: ['test', 'specimen'],
    attributes: [
      { name: 'document_type', value: 'PASSPORT' },
      { name: 'issuing_country', value: 'UTO' },
    ],
    checks: reportChecks({ explanations, faceStepRan: false, cloneDetection: 'none', facematchLevel: 0 }),
    facematchLevel: 0,
    eidasHigh: false,
    explanations,
    ...over,
  };
}
