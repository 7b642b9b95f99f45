/**
 * result_explanation values: the four of spec 7.3 and ours, for failures the spec has no value for.
 * A verification may fail for several reasons; all are listed.
 */
export const EXPLANATION = {
  CLONE_DETECTION: 'STATUS_BAD_CLONEDETECTION',
  DOCUMENT_HASHES: 'STATUS_BAD_DOCUMENTHASHES',
  DOCUMENT_SIGNATURE: 'STATUS_BAD_DOCUMENTSIGNATURE',
  COUNTRY_SIGNER_CHAIN: 'STATUS_BAD_COUNTRYSIGNERCHAIN',
  // Ours:
  DOCUMENT_EXPIRED: 'STATUS_BAD_DOCUMENTEXPIRED',
  DOCUMENT_TYPE: 'STATUS_BAD_DOCUMENTTYPE',
  NO_FACE: 'STATUS_BAD_NOFACE',
  LIVENESS: 'STATUS_BAD_LIVENESS',
  FACE_MATCH: 'STATUS_BAD_FACEMATCH',
} as const;

export type Explanation = (typeof EXPLANATION)[keyof typeof EXPLANATION];
