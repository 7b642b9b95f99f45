/** Specimen document generator (tests and customer-test environments only). */
export {
  createSpecimenAuthority,
  issueSpecimenCrl,
  generateSpecimenKeyPair,
  type SpecimenAuthority,
  type SpecimenAuthorityOptions,
  type SpecimenKeyType,
} from './authority.js';
export { issueSpecimenDocument, signActiveAuthChallenge, SPECIMEN_MRZ_FIELDS, type SpecimenDocument, type SpecimenDocumentInput } from './document.js';
export { deriveSpecimenCase, withFlippedSignatureBit, type SpecimenCase, type SpecimenFailureKind } from './failures.js';
export {
  encodeDg1,
  encodeDg2,
  encodeDg11,
  encodeDg14,
  encodeDg15,
  encodeEfCom,
  encodeDg14ForEcdsaAa,
  type SpecimenDg11,
  type SpecimenDg14,
} from './dataGroups.js';
export { answerChipAuthentication, type ChipAuthChipKey } from './chipAuthChip.js';
export { exportSpecimenAuthority, restoreSpecimenAuthority, type ExportedSpecimenAuthority } from './persist.js';
export { buildSod, type SodSigningInput } from './sodBuilder.js';
export { buildTd1, buildTd3, type MrzFields } from '../mrz/buildMrz.js';
