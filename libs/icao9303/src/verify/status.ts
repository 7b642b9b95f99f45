/** Result codes of the verification service spec, one per failed check family. */
export const STATUS = {
  PASS: 'PASS',
  BAD_DOCUMENT_HASHES: 'STATUS_BAD_DOCUMENTHASHES',
  BAD_DOCUMENT_SIGNATURE: 'STATUS_BAD_DOCUMENTSIGNATURE',
  BAD_COUNTRY_SIGNER_CHAIN: 'STATUS_BAD_COUNTRYSIGNERCHAIN',
  BAD_CLONE_DETECTION: 'STATUS_BAD_CLONEDETECTION',
} as const;

export type FailureStatus = Exclude<(typeof STATUS)[keyof typeof STATUS], 'PASS'>;
export type VerificationStatus = (typeof STATUS)[keyof typeof STATUS];

export type CheckName = 'dataGroupHashes' | 'documentSignature' | 'certificateChain' | 'crlFreshness' | 'activeAuthentication' | 'chipAuthentication';

export interface Failure {
  status: FailureStatus;
  check: CheckName;
  reason: string;
}

/** Order in which the overall status is chosen when several checks fail: the passive authentication steps first. */
const PRIORITY: FailureStatus[] = [STATUS.BAD_DOCUMENT_HASHES, STATUS.BAD_DOCUMENT_SIGNATURE, STATUS.BAD_COUNTRY_SIGNER_CHAIN, STATUS.BAD_CLONE_DETECTION];

export function overallStatus(failures: Failure[]): VerificationStatus {
  for (const s of PRIORITY) if (failures.some((f) => f.status === s)) return s;
  return STATUS.PASS;
}
