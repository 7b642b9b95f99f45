/** DG14 security options (ICAO 9303-10 §4.7.14): tag 6E wrapping SecurityInfos (9303-11 §9.2). */
import { guard } from '../errors.js';
import { expectTlv } from '../util/tlv.js';
import { parseSecurityInfos, type SecurityInfo, type ChipAuthenticationInfo, type ChipAuthenticationPublicKeyInfo } from './securityInfos.js';

export interface Dg14 {
  securityInfos: SecurityInfo[];
  chipAuthenticationInfos: ChipAuthenticationInfo[];
  chipAuthenticationPublicKeys: ChipAuthenticationPublicKeyInfo[];
}

export function parseDg14(bytes: Uint8Array): Dg14 {
  return guard('LDS_MALFORMED', 'DG14', () => {
    const outer = expectTlv(bytes, 0x6e, 'DG14');
    const securityInfos = parseSecurityInfos(outer.value, 'DG14.SecurityInfos');
    return {
      securityInfos,
      chipAuthenticationInfos: securityInfos.filter((s): s is ChipAuthenticationInfo => s.type === 'ChipAuthenticationInfo'),
      chipAuthenticationPublicKeys: securityInfos.filter((s): s is ChipAuthenticationPublicKeyInfo => s.type === 'ChipAuthenticationPublicKeyInfo'),
    };
  });
}
