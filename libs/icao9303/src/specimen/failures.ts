/**
 * Failure cases derived from a valid specimen document, one per result code of the service spec.
 * Each case carries everything `verifyDocument` needs plus the status it must produce.
 */
import { randomBytes } from 'node:crypto';
import { ContentInfo, SignedData } from '@peculiar/asn1-cms';
import { AsnConvert, AsnParser, OctetString } from '@peculiar/asn1-schema';
import { encode } from '../asn1/der.js';
import { Icao9303Error } from '../errors.js';
import { encodeTlv, expectTlv } from '../util/tlv.js';
import type { TrustStore } from '../pki/trustStore.js';
import { STATUS, type VerificationStatus } from '../verify/status.js';
import { createSpecimenAuthority, generateSpecimenKeyPair } from './authority.js';
import { signActiveAuthChallenge, type SpecimenDocument } from './document.js';

export type SpecimenFailureKind = 'VALID' | 'TAMPERED_DATA_GROUP' | 'BAD_SIGNATURE' | 'UNTRUSTED_CSCA' | 'ACTIVE_AUTH_WRONG_KEY';

export interface SpecimenCase {
  kind: SpecimenFailureKind;
  expectedStatus: VerificationStatus;
  sod: Uint8Array;
  dataGroups: Map<number, Uint8Array>;
  trustStore: TrustStore;
  /** a fresh 8-byte challenge and the signature the (possibly cloned) chip returns for it */
  activeAuth?: { challenge: Uint8Array; signature: Uint8Array };
}

export async function deriveSpecimenCase(doc: SpecimenDocument, kind: SpecimenFailureKind): Promise<SpecimenCase> {
  const challenge = new Uint8Array(randomBytes(8));
  const base: SpecimenCase = {
    kind,
    expectedStatus: STATUS.PASS,
    sod: doc.sod,
    dataGroups: new Map(doc.dataGroups),
    trustStore: doc.authority.trustStore(),
    activeAuth: doc.activeAuthKey ? { challenge, signature: signActiveAuthChallenge(doc, challenge) } : undefined,
  };
  switch (kind) {
    case 'VALID':
      return base;
    case 'TAMPERED_DATA_GROUP': {
      // change one MRZ character of DG1 (the last byte: composite check digit position)
      const dg1 = doc.dataGroups.get(1)!.slice();
      dg1[dg1.length - 1] = dg1[dg1.length - 1] === 0x30 ? 0x31 : 0x30;
      base.dataGroups.set(1, dg1);
      return { ...base, expectedStatus: STATUS.BAD_DOCUMENT_HASHES };
    }
    case 'BAD_SIGNATURE':
      return { ...base, sod: withFlippedSignatureBit(doc.sod), expectedStatus: STATUS.BAD_DOCUMENT_SIGNATURE };
    case 'UNTRUSTED_CSCA': {
      const other = await createSpecimenAuthority({ country: doc.authority.country, keyType: doc.authority.keyType, name: 'Impostor' });
      return { ...base, trustStore: other.trustStore(), expectedStatus: STATUS.BAD_COUNTRY_SIGNER_CHAIN };
    }
    case 'ACTIVE_AUTH_WRONG_KEY': {
      if (!doc.activeAuthKey) throw new Icao9303Error('INVALID_ARGUMENT', 'activeAuthKey', 'document was issued without Active Authentication');
      const clone = await generateSpecimenKeyPair(doc.activeAuthKey.type);
      const signature = signActiveAuthChallenge({ activeAuthKey: { ...doc.activeAuthKey, ...clone } }, challenge);
      return { ...base, activeAuth: { challenge, signature }, expectedStatus: STATUS.BAD_CLONE_DETECTION };
    }
  }
}

/** Re-encodes the SOD with the last bit of the SignerInfo signature flipped. */
export function withFlippedSignatureBit(sod: Uint8Array): Uint8Array {
  const ci = AsnParser.parse(expectTlv(sod, 0x77, 'EF.SOD').value, ContentInfo);
  const sd = AsnParser.parse(ci.content, SignedData);
  const sig = new Uint8Array(sd.signerInfos[0].signature.buffer).slice();
  sig[sig.length - 1] ^= 0x01;
  sd.signerInfos[0].signature = new OctetString(sig);
  ci.content = AsnConvert.serialize(sd);
  return encodeTlv(0x77, encode(ci));
}
