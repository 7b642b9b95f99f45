import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';

/**
 * RFC 8705 §2.1.2 `tls_client_auth_subject_dn` against a certificate's subject, compared as structures, not as text:
 * the certificate's Name read from its DER (@peculiar/asn1-x509) and the registered RFC 4514 string parsed here, each as
 * RDNs of (attribute type OID, value). So `2.5.4.97=PSDNO-FSA-1` matches the organizationIdentifier a PSD2 certificate
 * carries, `cn=` matches `CN=`, and a multi-valued RDN (`CN=rp+serialNumber=42`) matches in any order of its members.
 */
type Rdn = string[];

/** RFC 4514 §3's names, and the other X.520 / RFC 4519 names bank and eIDAS certificates carry, as OIDs. */
const TYPE_OIDS: Record<string, string> = {
  CN: '2.5.4.3',
  SN: '2.5.4.4',
  SURNAME: '2.5.4.4',
  SERIALNUMBER: '2.5.4.5',
  C: '2.5.4.6',
  L: '2.5.4.7',
  ST: '2.5.4.8',
  STREET: '2.5.4.9',
  O: '2.5.4.10',
  OU: '2.5.4.11',
  TITLE: '2.5.4.12',
  GN: '2.5.4.42',
  GIVENNAME: '2.5.4.42',
  ORGANIZATIONIDENTIFIER: '2.5.4.97',
  DC: '0.9.2342.19200300.100.1.25',
  UID: '0.9.2342.19200300.100.1.1',
  EMAILADDRESS: '1.2.840.113549.1.9.1',
};

/** The certificate's subject, most specific RDN first (the order RFC 4514 §2.1 writes), each RDN's members sorted. */
export function subjectRdnsOf(der: Uint8Array): Rdn[] {
  const subject = AsnConvert.parse(der, Certificate).tbsCertificate.subject;
  return subject.map((rdn) => rdn.map((atv) => `${atv.type}=${atv.value.toString()}`).sort()).reverse();
}

/** An RFC 4514 string as RDNs (most specific first); undefined when it is not one this reader understands. */
export function parseDistinguishedName(dn: string): Rdn[] | undefined {
  const rdns: Rdn[] = [];
  for (const rdn of splitUnescaped(dn, ',')) {
    const members: string[] = [];
    for (const member of splitUnescaped(rdn, '+')) {
      const at = member.indexOf('=');
      if (at <= 0) return undefined;
      const type = member.slice(0, at).trim();
      const oid = /^\d+(\.\d+)+$/.test(type) ? type : TYPE_OIDS[type.toUpperCase()];
      const value = unescape(member.slice(at + 1).trim());
      // A hex-encoded BER value (RFC 4514 §2.4 `#…`) is not compared: such a registration never matches.
      if (!oid || value === undefined || value.startsWith('#')) return undefined;
      members.push(`${oid}=${value}`);
    }
    rdns.push(members.sort());
  }
  return rdns;
}

/** Whether the registered string names exactly the certificate's subject (every RDN, in order; values exact). */
export function subjectNamed(der: Uint8Array, registered: string): boolean {
  const wanted = parseDistinguishedName(registered);
  if (!wanted) return false;
  const presented = subjectRdnsOf(der);
  return presented.length === wanted.length && presented.every((rdn, i) => rdn.length === wanted[i].length && rdn.every((m, j) => m === wanted[i][j]));
}

/** Splits at `separator` where it is not escaped by a backslash (RFC 4514 §2.4). */
function splitUnescaped(text: string, separator: ',' | '+'): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && i + 1 < text.length) {
      current += text[i] + text[i + 1];
      i++;
    } else if (text[i] === separator) {
      parts.push(current);
      current = '';
    } else current += text[i];
  }
  parts.push(current);
  return parts;
}

/** RFC 4514 §2.4 escapes: `\,` and the other specials stand for themselves, `\XX` for a UTF-8 byte; undefined if malformed. */
function unescape(value: string): string | undefined {
  const chars = [...value];
  const bytes: number[] = [];
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] !== '\\') {
      bytes.push(...Buffer.from(chars[i], 'utf8'));
      continue;
    }
    const hex = (chars[i + 1] ?? '') + (chars[i + 2] ?? '');
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (i + 1 < chars.length) {
      bytes.push(...Buffer.from(chars[i + 1], 'utf8'));
      i++;
    } else return undefined;
  }
  return Buffer.from(bytes).toString('utf8');
}
