/** Object identifiers used by ICAO 9303-10/-11/-12, BSI TR-03110 and RFC 5652/4055/5480/5758. */
export const OID = {
  ldsSecurityObject: '2.23.136.1.1.1', // 9303-10 §4.6.2.2
  cscaMasterList: '2.23.136.1.1.2', // 9303-12 §8
  activeAuthentication: '2.23.136.1.1.5', // 9303-11 §6.1
  idData: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  securityObject: '0.4.0.127.0.7.3.2.1', // BSI TR-03110-3 A.1.2.5 (EF.CardSecurity eContentType)
  rsaEncryption: '1.2.840.113549.1.1.1',
  rsassaPss: '1.2.840.113549.1.1.10',
  ecPublicKey: '1.2.840.10045.2.1',
  standardizedDomainParameters: '0.4.0.127.0.7.1.2', // BSI TR-03110-3 A.2.1.1
  dhPublicNumber: '1.2.840.10046.2.1',
  pkDh: '0.4.0.127.0.7.2.2.1.1',
  pkEcdh: '0.4.0.127.0.7.2.2.1.2',
  ta: '0.4.0.127.0.7.2.2.2',
  caPrefix: '0.4.0.127.0.7.2.2.3.',
  pacePrefix: '0.4.0.127.0.7.2.2.4.',
  mgf1: '1.2.840.113549.1.1.8',
  crlDistributionPoints: '2.5.29.31',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  authorityKeyIdentifier: '2.5.29.35',
  subjectKeyIdentifier: '2.5.29.14',
} as const;

/** Hash algorithm OIDs (RFC 3279/5754/8017) → Node digest names. */
export const HASH_BY_OID: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

export const OID_BY_HASH: Record<string, string> = Object.fromEntries(Object.entries(HASH_BY_OID).map(([o, h]) => [h, o]));

/** Signature algorithm OIDs → hash + scheme (RFC 8017 A.2.4, RFC 5758 §3.2, BSI TR-03111 §5.2.1). */
export const SIGNATURE_BY_OID: Record<string, { scheme: 'rsa-pkcs1' | 'ecdsa' | 'rsa-pss' | 'rsa-bare'; hash?: string }> = {
  '1.2.840.113549.1.1.5': { scheme: 'rsa-pkcs1', hash: 'sha1' },
  '1.2.840.113549.1.1.14': { scheme: 'rsa-pkcs1', hash: 'sha224' },
  '1.2.840.113549.1.1.11': { scheme: 'rsa-pkcs1', hash: 'sha256' },
  '1.2.840.113549.1.1.12': { scheme: 'rsa-pkcs1', hash: 'sha384' },
  '1.2.840.113549.1.1.13': { scheme: 'rsa-pkcs1', hash: 'sha512' },
  '1.2.840.113549.1.1.1': { scheme: 'rsa-bare' },
  '1.2.840.113549.1.1.10': { scheme: 'rsa-pss' },
  '1.2.840.10045.4.1': { scheme: 'ecdsa', hash: 'sha1' },
  '1.2.840.10045.4.3.1': { scheme: 'ecdsa', hash: 'sha224' },
  '1.2.840.10045.4.3.2': { scheme: 'ecdsa', hash: 'sha256' },
  '1.2.840.10045.4.3.3': { scheme: 'ecdsa', hash: 'sha384' },
  '1.2.840.10045.4.3.4': { scheme: 'ecdsa', hash: 'sha512' },
  // BSI TR-03111 §5.2.1 ecdsa-plain-SHA* (r||s)
  '0.4.0.127.0.7.1.1.4.1.1': { scheme: 'ecdsa', hash: 'sha1' },
  '0.4.0.127.0.7.1.1.4.1.2': { scheme: 'ecdsa', hash: 'sha224' },
  '0.4.0.127.0.7.1.1.4.1.3': { scheme: 'ecdsa', hash: 'sha256' },
  '0.4.0.127.0.7.1.1.4.1.4': { scheme: 'ecdsa', hash: 'sha384' },
  '0.4.0.127.0.7.1.1.4.1.5': { scheme: 'ecdsa', hash: 'sha512' },
};
