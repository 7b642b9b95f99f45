/**
 * Specimen eMRTD issuance: DG1 from an MRZ, DG2 from a face image, DG11, DG15 with an Active
 * Authentication key (and DG14 naming the ECDSA AA hash), optionally a Chip Authentication key in DG14,
 * EF.COM and a signed EF.SOD.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { buildTd1, buildTd3, type MrzFields } from '../mrz/buildMrz.js';
import { parseMrz } from '../mrz/mrz.js';
import { signIso9796Scheme1 } from '../aa/iso9796.js';
import { Icao9303Error } from '../errors.js';
import { encodeDg1, encodeDg11, encodeDg14, encodeDg15, encodeDg2, encodeEfCom, type SpecimenDg11, type SpecimenDg14 } from './dataGroups.js';
import type { ChipAuthChipKey } from './chipAuthChip.js';
import type { SmCipher } from '../sm/primitives.js';
import { buildSod } from './sodBuilder.js';
import { generateSpecimenKeyPair, type SpecimenAuthority, type SpecimenKeyType } from './authority.js';

export interface SpecimenDocumentInput {
  /** a complete MRZ (TD1/TD2/TD3, check digits must be right) or fields to build one */
  mrz?: string | MrzFields;
  /** 'passport' → TD3 (default), 'idCard' → TD1; only used when `mrz` is given as fields */
  documentKind?: 'passport' | 'idCard';
  /** JPEG or JPEG 2000 bytes; DG2 is included only when given */
  faceImage?: Uint8Array;
  dg11?: SpecimenDg11;
  /** Active Authentication key type; false omits DG15 (default 'EC') */
  activeAuthentication?: SpecimenKeyType | false;
  /** a Chip Authentication key (P-256 ECDH) in DG14 (9303-11 §6.2); default none */
  chipAuthentication?: boolean | { cipher?: SmCipher; keyId?: number };
  signingTime?: Date;
  hashAlgorithm?: 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512';
}

export interface SpecimenDocument {
  mrz: string;
  mrzInformation: string;
  efCom: Uint8Array;
  sod: Uint8Array;
  dataGroups: Map<number, Uint8Array>;
  activeAuthKey?: { type: SpecimenKeyType; privateKey: KeyObject; publicKey: KeyObject };
  /** the DG14 Chip Authentication private key, for answerChipAuthentication */
  chipAuthKey?: ChipAuthChipKey & { keyAgreement: 'ECDH'; keyId?: number };
  authority: SpecimenAuthority;
}

export const SPECIMEN_MRZ_FIELDS: MrzFields = {
  issuingState: 'UTO',
  surname: 'Specimen',
  givenNames: 'Erika',
  documentNumber: 'SPEC12345',
  nationality: 'UTO',
  dateOfBirth: '900101',
  sex: 'F',
  dateOfExpiry: '351231',
};

export async function issueSpecimenDocument(authority: SpecimenAuthority, input: SpecimenDocumentInput = {}): Promise<SpecimenDocument> {
  const mrzInput = input.mrz ?? SPECIMEN_MRZ_FIELDS;
  const mrzText =
    typeof mrzInput === 'string'
      ? mrzInput.replace(/\s+/g, '')
      : input.documentKind === 'idCard'
        ? buildTd1({ documentCode: 'ID', ...mrzInput })
        : buildTd3(mrzInput);
  const mrz = parseMrz(mrzText); // strict: a specimen must have correct check digits
  const dataGroups = new Map<number, Uint8Array>([[1, encodeDg1(mrzText)]]);
  if (input.faceImage) dataGroups.set(2, encodeDg2(input.faceImage));
  if (input.dg11) dataGroups.set(11, encodeDg11(input.dg11));
  let activeAuthKey: SpecimenDocument['activeAuthKey'];
  const aaType = input.activeAuthentication ?? 'EC';
  const dg14: SpecimenDg14 = {};
  if (aaType) {
    const keys = await generateSpecimenKeyPair(aaType);
    activeAuthKey = { type: aaType, privateKey: keys.privateKey, publicKey: keys.publicKey };
    if (aaType === 'EC') dg14.ecdsaAaSignatureAlgorithm = '0.4.0.127.0.7.1.1.4.1.3'; // ecdsa-plain-SHA256
    dataGroups.set(15, encodeDg15(new Uint8Array(keys.publicKey.export({ format: 'der', type: 'spki' }))));
  }
  let chipAuthKey: SpecimenDocument['chipAuthKey'];
  if (input.chipAuthentication) {
    const options = input.chipAuthentication === true ? {} : input.chipAuthentication;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    chipAuthKey = { keyAgreement: 'ECDH', privateKey, cipher: options.cipher ?? 'AES-128', keyId: options.keyId };
    dg14.chipAuthentication = {
      spki: new Uint8Array(publicKey.export({ format: 'der', type: 'spki' })),
      keyAgreement: 'ECDH',
      cipher: chipAuthKey.cipher,
      keyId: options.keyId,
    };
  }
  if (dg14.ecdsaAaSignatureAlgorithm || dg14.chipAuthentication) dataGroups.set(14, encodeDg14(dg14));
  const sorted = new Map([...dataGroups.entries()].sort(([a], [b]) => a - b));
  const sod = buildSod({
    dataGroups: sorted,
    signer: { certificate: authority.documentSigner.certificate, privateKey: authority.documentSigner.keys.privateKey },
    hashAlgorithm: input.hashAlgorithm,
    signingTime: input.signingTime,
  });
  return {
    mrz: mrzText,
    mrzInformation: mrz.mrzInformation,
    efCom: encodeEfCom([...sorted.keys()]),
    sod,
    dataGroups: sorted,
    activeAuthKey,
    chipAuthKey,
    authority,
  };
}

/**
 * The chip's answer to INTERNAL AUTHENTICATE (9303-11 §6.1.2): ISO/IEC 9796-2 scheme 1 (SHA-1, trailer BC)
 * for RSA, plain r||s ECDSA-SHA256 for EC (TR-03111 §5.2.1, matching the DG14 ActiveAuthenticationInfo).
 */
export function signActiveAuthChallenge(doc: Pick<SpecimenDocument, 'activeAuthKey'>, challenge: Uint8Array): Uint8Array {
  const key = doc.activeAuthKey;
  if (!key) throw new Icao9303Error('INVALID_ARGUMENT', 'activeAuthKey', 'document was issued without Active Authentication');
  if (key.type === 'RSA') return signIso9796Scheme1(key.privateKey, (key.publicKey.asymmetricKeyDetails?.modulusLength ?? 2048) / 8, challenge, 'sha1');
  return new Uint8Array(sign('sha256', challenge, { key: key.privateKey, dsaEncoding: 'ieee-p1363' }));
}
