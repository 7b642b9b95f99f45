/**
 * SecurityInfos (ICAO 9303-11 §9.2, BSI TR-03110-3 A.1.1) as found in DG14, EF.CardAccess and
 * EF.CardSecurity: chip authentication, PACE, terminal and active authentication infos, and
 * chip authentication public keys.
 */
import { AsnParser } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier, SubjectPublicKeyInfo } from '@peculiar/asn1-x509';
import { guard } from '../errors.js';
import { decode, encode } from '../asn1/der.js';
import { DerReader } from '../asn1/derReader.js';
import { OID } from '../asn1/oids.js';
import { SecurityInfos } from '../asn1/schemas.js';
import { publicKeyFromSpki, type PublicKeyInfo } from '../crypto/publicKey.js';

export interface ChipAuthenticationInfo {
  type: 'ChipAuthenticationInfo';
  protocol: string;
  /** 'DH' | 'ECDH' and '3DES' | 'AES-128' | 'AES-192' | 'AES-256' from the OID (9303-11 §9.2.5) */
  keyAgreement: 'DH' | 'ECDH';
  cipher: '3DES' | 'AES-128' | 'AES-192' | 'AES-256' | 'unknown';
  version: number;
  keyId?: number;
}

export interface ChipAuthenticationPublicKeyInfo {
  type: 'ChipAuthenticationPublicKeyInfo';
  protocol: string;
  publicKey: PublicKeyInfo;
  keyId?: number;
}

export interface OtherSecurityInfo {
  type: 'PACEInfo' | 'TerminalAuthenticationInfo' | 'ActiveAuthenticationInfo' | 'DomainParameterInfo' | 'Unknown';
  protocol: string;
  version?: number;
  parameterId?: number;
  /** ActiveAuthenticationInfo.signatureAlgorithm (9303-11 §6.1, e.g. ecdsa-plain-SHA256) */
  signatureAlgorithm?: string;
}

export type SecurityInfo = ChipAuthenticationInfo | ChipAuthenticationPublicKeyInfo | OtherSecurityInfo;

const CA_CIPHERS: Record<string, ChipAuthenticationInfo['cipher']> = { '1': '3DES', '2': 'AES-128', '3': 'AES-192', '4': 'AES-256' };

function integer(buf: ArrayBuffer | undefined, field: string): number | undefined {
  if (!buf) return undefined;
  const reader = new DerReader('LDS_MALFORMED', field);
  return reader.smallInt(reader.one(new Uint8Array(buf), 'INTEGER'), 'INTEGER');
}

export function parseSecurityInfos(der: Uint8Array, field: string): SecurityInfo[] {
  return guard('LDS_MALFORMED', field, () => parseInfos(der, field));
}

function parseInfos(der: Uint8Array, field: string): SecurityInfo[] {
  const infos = decode(der, SecurityInfos, 'LDS_MALFORMED', field);
  return infos.map((info, i): SecurityInfo => {
    const f = `${field}.SecurityInfo[${i}]`;
    const p = info.protocol;
    const arcs = (prefix: string) => (p.startsWith(prefix) ? p.slice(prefix.length).split('.').length : 0);
    // id-CA-<KA>-<cipher> has two arcs after the prefix; one arc is a *DomainParameterInfo (TR-03110-3 A.1.1)
    if (arcs(OID.caPrefix) === 2) {
      // id-CA-DH-* = caPrefix.1.x, id-CA-ECDH-* = caPrefix.2.x
      const [ka, cipher] = p.slice(OID.caPrefix.length).split('.');
      return {
        type: 'ChipAuthenticationInfo',
        protocol: p,
        keyAgreement: ka === '1' ? 'DH' : 'ECDH',
        cipher: CA_CIPHERS[cipher] ?? 'unknown',
        version: integer(info.requiredData, f)!,
        keyId: integer(info.optionalData, f),
      };
    }
    if (p === OID.pkDh || p === OID.pkEcdh) {
      const spki = encode(AsnParser.parse(info.requiredData, SubjectPublicKeyInfo));
      return {
        type: 'ChipAuthenticationPublicKeyInfo',
        protocol: p,
        publicKey: publicKeyFromSpki(spki, `${f}.chipAuthenticationPublicKey`),
        keyId: integer(info.optionalData, f),
      };
    }
    if (arcs(OID.pacePrefix) === 2)
      return { type: 'PACEInfo', protocol: p, version: integer(info.requiredData, f), parameterId: integer(info.optionalData, f) };
    if (p === OID.ta) return { type: 'TerminalAuthenticationInfo', protocol: p, version: integer(info.requiredData, f) };
    if (p === OID.activeAuthentication) {
      const alg = info.optionalData ? AsnParser.parse(info.optionalData, AlgorithmIdentifier).algorithm : undefined;
      return { type: 'ActiveAuthenticationInfo', protocol: p, version: integer(info.requiredData, f), signatureAlgorithm: alg };
    }
    if (arcs(OID.caPrefix) === 1 || arcs(OID.pacePrefix) === 1) return { type: 'DomainParameterInfo', protocol: p };
    return { type: 'Unknown', protocol: p };
  });
}
