/** Public API of the ICAO 9303 library (framework-free). */
export { Icao9303Error, type Icao9303ErrorCode } from './errors.js';
export { toHex, fromHex } from './util/bytes.js';
export { parseMrz, mrzInformation, type Mrz, type MrzFormat, type MrzCheckDigits } from './mrz/mrz.js';
export { computeCheckDigit } from './mrz/checkDigit.js';
export { parseEfCom, type EfCom } from './lds/com.js';
export { parseDg1, type Dg1 } from './lds/dg1.js';
export { parseDg2, type Dg2 } from './lds/dg2.js';
export { parseFaceRecord } from './lds/biometric/faceRecord.js';
export type { FaceImage } from './lds/biometric/iso19794.js';
export { parseDg11, type Dg11, type Dg11Name } from './lds/dg11.js';
export { parseDg12, type Dg12 } from './lds/dg12.js';
export { parseDg14, type Dg14 } from './lds/dg14.js';
export { parseDg15, type Dg15 } from './lds/dg15.js';
export { parseCardSecurity, type CardSecurity } from './lds/cardSecurity.js';
export { parseSecurityInfos, type SecurityInfo, type ChipAuthenticationInfo, type ChipAuthenticationPublicKeyInfo } from './lds/securityInfos.js';
export { parseLdsFile, type LdsFile } from './lds/parseAny.js';
export { DG_TAGS, FILE_IDS } from './lds/tags.js';
export { parseSod, type Sod, type DataGroupHashEntry } from './sod/sod.js';
export { parseSignedData, type ParsedSignedData } from './sod/signedData.js';
export { publicKeyFromSpki, type PublicKeyInfo } from './crypto/publicKey.js';
export { DocumentCertificate, type CertificateSummary } from './pki/certificate.js';
export { CertificateRevocationList } from './pki/crl.js';
export { TrustStore } from './pki/trustStore.js';
export { loadMasterList, type MasterListReport } from './pki/masterList.js';
export { checkDataGroupHashes, type DataGroupHashCheck, type DataGroupHashResult } from './pa/dataGroupHashes.js';
export { checkSignerSignature, type SignerSignatureCheck } from './pa/signerSignature.js';
export { checkCertificateChain, type ChainCheck, type ConsultedCrl } from './pa/certificateChain.js';
export { checkCrlFreshness, type CrlFreshnessCheck, type CrlFreshnessCode, type CrlFreshnessPolicy } from './pa/crlFreshness.js';
export { verifyActiveAuthentication, type ActiveAuthCheck } from './aa/activeAuth.js';
export { verifyIso9796Scheme1, signIso9796Scheme1 } from './aa/iso9796.js';
export {
  startChipAuthentication,
  verifyChipAuthenticationResponse,
  isChallengeDg14,
  CHIP_AUTH_FIRST_COMMAND,
  type ChipAuthChallenge,
  type ChipAuthTerminalState,
  type ChipAuthCheck,
  type ChipAuthEvidence,
  type StartChipAuthOptions,
} from './ca/chipAuth.js';
export { deriveBacKeys, buildMutualAuth, completeMutualAuth, type BacKeys, type BacSessionKeys } from './sm/bac.js';
export { SecureMessaging } from './sm/secureMessaging.js';
export { deriveKey, retailMac, aesCmac, pad, unpad, type SmCipher } from './sm/primitives.js';
export { type ApduTransport, readFile, openBacSession, selectApplication, LDS1_AID } from './reader/reader.js';
export { verifyDocument, type VerifyDocumentInput, type VerifyDocumentResult } from './verify/verifyDocument.js';
export { TIMING_CHANNEL, type StepTiming } from './verify/timing.js';
export { STATUS, overallStatus, type VerificationStatus, type Failure, type FailureStatus, type CheckName } from './verify/status.js';
export * from './specimen/index.js';
