/**
 * EF.CardSecurity (ICAO 9303-11 §9.2.x / BSI TR-03110-3 A.1.2.5): CMS SignedData, eContentType id-SecurityObject,
 * wrapping SecurityInfos; signed by a Document Signer like the SOD.
 */
import { Icao9303Error } from '../errors.js';
import { OID } from '../asn1/oids.js';
import { parseSignedData, type ParsedSignedData } from '../sod/signedData.js';
import { parseSecurityInfos, type SecurityInfo } from './securityInfos.js';

export interface CardSecurity extends ParsedSignedData {
  securityInfos: SecurityInfo[];
}

export function parseCardSecurity(bytes: Uint8Array): CardSecurity {
  const sd = parseSignedData(bytes, 'EF.CardSecurity');
  if (sd.eContentType !== OID.securityObject) {
    throw new Icao9303Error('SOD_MALFORMED', 'EF.CardSecurity.eContentType', `expected id-SecurityObject, found ${sd.eContentType}`);
  }
  return { ...sd, securityInfos: parseSecurityInfos(sd.eContent, 'EF.CardSecurity.SecurityInfos') };
}
