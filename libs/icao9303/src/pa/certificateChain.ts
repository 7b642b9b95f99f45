/**
 * Passive authentication step (c): the Document Signer certificate chains to a trusted CSCA
 * (ICAO 9303-11 §5.1 steps 1–2, 9303-12 §7; path validation after RFC 5280 §6.1), possibly through link
 * certificates, and nothing on the path is revoked by a loaded CRL (9303-12 §7.1.4).
 *
 * Expiry policy (documented in README, ICAO 9303-12 §7.1.2 "shell/chain" discussion):
 *  - DS certificate: must have been valid when the document was signed. The signing time is the SOD
 *    signingTime attribute when present and not after `at`; otherwise `at` itself. An expired DS certificate
 *    is therefore accepted for a document signed during its validity.
 *  - CSCA and link certificates: must be valid at `at` (verification time). An expired CSCA chain fails.
 *  - A DS certificate placed explicitly in the trust store is a trust anchor and follows the DS rule.
 */
import type { TrustStore } from '../pki/trustStore.js';
import type { CertificateSummary, DocumentCertificate } from '../pki/certificate.js';
import type { CertificateRevocationList } from '../pki/crl.js';

export interface ChainCheck {
  ok: boolean;
  /** DS first, trust anchor last */
  path: CertificateSummary[];
  /** the time the DS validity was evaluated at, and where it came from */
  signingReferenceTime: string;
  signingReferenceSource: 'signingTime' | 'verificationTime';
  revocationChecked: boolean;
  /** Every CRL consulted for the path (the issuer it covers, its dates), for the freshness step (crlFreshness.ts). */
  revocationLists: ConsultedCrl[];
  problems: string[];
}

export interface ConsultedCrl {
  /** the CSCA (or link issuer) whose certificates the CRL covers */
  issuer: string;
  thisUpdate: string;
  /** absent only in a CRL that does not conform to RFC 5280 §5.1.2.5 */
  nextUpdate?: string;
}

const MAX_DEPTH = 4;

export function checkCertificateChain(ds: DocumentCertificate, trustStore: TrustStore, at: Date, signingTime?: Date): ChainCheck {
  const useSigningTime = !!signingTime && signingTime.getTime() <= at.getTime();
  const reference = useSigningTime ? signingTime! : at;
  const problems: string[] = [];
  if (!ds.validAt(reference)) {
    problems.push(
      `DS certificate "${ds.subject}" not valid at ${useSigningTime ? 'signing time' : 'verification time'} ${reference.toISOString()} (valid ${ds.notBefore.toISOString()}..${ds.notAfter.toISOString()})`,
    );
  }
  let revocationChecked = false;
  const consulted = new Map<CertificateRevocationList, ConsultedCrl>();
  const revoked = (c: DocumentCertificate): boolean => {
    for (const crl of trustStore.crlsFor(c)) {
      revocationChecked = true;
      consulted.set(crl, { issuer: c.issuer, thisUpdate: crl.thisUpdate.toISOString(), nextUpdate: crl.nextUpdate?.toISOString() });
      const entry = crl.isRevoked(c, at);
      if (entry) {
        problems.push(`certificate ${c.summary().serialNumber} of "${c.issuer}" revoked on ${entry.revocationDate.toISOString()} (9303-12 §7.1.4)`);
        return true;
      }
    }
    return false;
  };

  let best: DocumentCertificate[] | undefined;
  const expiryProblems: string[] = [];
  // Depth-first search from the DS towards an anchor; each hop must verify (RFC 5280 §6.1.3).
  const search = (path: DocumentCertificate[]): boolean => {
    const head = path[path.length - 1];
    if (trustStore.isTrusted(head)) {
      best = path;
      return true;
    }
    if (path.length > MAX_DEPTH) return false;
    for (const issuer of trustStore.issuersOf(head)) {
      if (path.some((p) => p.fingerprint === issuer.fingerprint)) continue;
      if (!issuer.validAt(at)) {
        expiryProblems.push(
          `CA certificate "${issuer.subject}" not valid at ${at.toISOString()} (valid ${issuer.notBefore.toISOString()}..${issuer.notAfter.toISOString()})`,
        );
        continue;
      }
      if (search([...path, issuer])) return true;
    }
    return false;
  };
  const found = search([ds]);
  if (!found) {
    problems.push(...expiryProblems);
    problems.push(`no path from DS issuer "${ds.issuer}" to a trusted CSCA (9303-11 §5.1)`);
  }
  const path = best ?? [ds];
  const anyRevoked = found ? path.map(revoked).some(Boolean) : false;
  return {
    ok: found && problems.length === 0 && !anyRevoked,
    path: path.map((c) => c.summary()),
    signingReferenceTime: reference.toISOString(),
    signingReferenceSource: useSigningTime ? 'signingTime' : 'verificationTime',
    revocationChecked,
    revocationLists: [...consulted.values()],
    problems,
  };
}
