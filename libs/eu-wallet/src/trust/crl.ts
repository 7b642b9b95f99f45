/**
 * Certificate revocation lists (RFC 5280 §5) as the wallet scheme reads them: parsed and signature-checked with
 * @peculiar/x509's X509Crl, judged for one certificate by the rules of RFC 5280 §6.3.3 that apply to complete CRLs.
 */
// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import type { X509Certificate } from 'node:crypto';
import { id_ce_deltaCRLIndicator, id_ce_issuingDistributionPoint, IssuingDistributionPoint, type GeneralName } from '@peculiar/asn1-x509';
import { AsnConvert } from '@peculiar/asn1-schema';
import * as x509 from '@peculiar/x509';

/** The CRL extensions this reader understands (RFC 5280 §5.2): any other critical one makes a CRL unusable. */
const CRL_NUMBER = '2.5.29.20';
const AUTHORITY_KEY_IDENTIFIER = '2.5.29.35';
const UNDERSTOOD = new Set([CRL_NUMBER, AUTHORITY_KEY_IDENTIFIER, id_ce_issuingDistributionPoint]);

export interface Crl {
  readonly crl: x509.X509Crl;
  readonly issuer: string;
  readonly thisUpdate: Date;
  readonly nextUpdate?: Date;
  /** Why this CRL can decide no certificate's status, if it cannot (a delta CRL, an indirect or partitioned one). */
  readonly unusable?: string;
  /** Its issuingDistributionPoint's scope (RFC 5280 §5.2.5), when it has one. */
  readonly scope?: { userOnly: boolean; caOnly: boolean; uris: string[] };
  /** Signature checks already made, by the issuer certificate's SHA-256 fingerprint: each costs a WebCrypto verify. */
  readonly verifiedBy: Map<string, boolean>;
}

const uris = (names: readonly GeneralName[] | undefined): string[] =>
  (names ?? []).flatMap((n) => (n.uniformResourceIdentifier ? [n.uniformResourceIdentifier] : []));

/** A CRL from DER or PEM bytes; throws on anything that is not one (the caller names the file or the address). */
export function parseCrl(bytes: Uint8Array): Crl {
  const text = Buffer.from(bytes).toString('latin1');
  const crl = new x509.X509Crl(text.includes('-----BEGIN X509 CRL-----') ? text : Buffer.from(bytes));
  let unusable: string | undefined;
  let scope: Crl['scope'];
  for (const ext of crl.extensions) {
    if (ext.type === id_ce_deltaCRLIndicator) unusable = 'it is a delta CRL (only complete CRLs are read)';
    else if (ext.type === id_ce_issuingDistributionPoint) {
      const idp = AsnConvert.parse(ext.value, IssuingDistributionPoint);
      if (idp.indirectCRL || idp.onlySomeReasons || idp.onlyContainsAttributeCerts) unusable = 'it is an indirect CRL or covers only some reasons';
      scope = { userOnly: idp.onlyContainsUserCerts, caOnly: idp.onlyContainsCACerts, uris: uris(idp.distributionPoint?.fullName) };
    } else if (ext.critical && !UNDERSTOOD.has(ext.type)) unusable = `it has a critical extension this reader does not know (${ext.type})`;
  }
  return { crl, issuer: crl.issuer, thisUpdate: crl.thisUpdate, nextUpdate: crl.nextUpdate, unusable, scope, verifiedBy: new Map() };
}

export interface DistributionPoints {
  /** The http(s) addresses of the certificate's CRL Distribution Points (RFC 5280 §4.2.1.13). */
  urls: string[];
  /** Whether it names any distribution point at all, usable here or not (ldap only, a cRLIssuer, some reasons). */
  any: boolean;
}

/**
 * The addresses a certificate names for its CRL. A distribution point with `reasons` or a `cRLIssuer` (a partitioned or
 * indirect CRL) is counted but not fetched; ldap and other schemes are not fetched either.
 */
export function distributionPoints(certificate: x509.X509Certificate): DistributionPoints {
  const points = certificate.getExtension(x509.CRLDistributionPointsExtension)?.distributionPoints ?? [];
  const urls = points
    .filter((p) => !p.reasons && !p.cRLIssuer)
    .flatMap((p) => uris(p.distributionPoint?.fullName))
    .filter((u) => /^https?:\/\//i.test(u));
  return { urls: [...new Set(urls)], any: points.length > 0 };
}

/**
 * Why `issuer` cannot be the signer of `crl` (RFC 5280 §6.3.3 (f), (g)), undefined when it is: it may sign CRLs and its
 * key made the signature. The signature check is kept in crl.verifiedBy, so a CRL checked once (at load) is not verified
 * again per certificate.
 */
export async function crlSignerProblem(crl: Crl, issuer: x509.X509Certificate): Promise<string | undefined> {
  // §6.3.3 (f): a CA whose keyUsage is present must have cRLSign to sign CRLs.
  const usage = issuer.getExtension(x509.KeyUsagesExtension);
  if (usage && !(usage.usages & x509.KeyUsageFlags.cRLSign)) return 'its issuer certificate may not sign CRLs (no cRLSign)';
  const fingerprint = Buffer.from(await issuer.getThumbprint('SHA-256')).toString('hex');
  let signed = crl.verifiedBy.get(fingerprint);
  if (signed === undefined) {
    // The issuer's PublicKey, not its certificate: given a certificate, X509Crl.verify takes the hash of the
    // certificate's own signature algorithm instead of the CRL's.
    signed = await crl.crl.verify({ publicKey: issuer.publicKey }).catch(() => false);
    crl.verifiedBy.set(fingerprint, signed);
  }
  return signed ? undefined : 'its signature is not by the certificate issuer';
}

export type CrlVerdict = { verdict: 'revoked' } | { verdict: 'good' } | { verdict: 'unusable'; reason: string };

export const peculiar = (certificate: X509Certificate) => new x509.X509Certificate(certificate.raw);

/**
 * What `crl` says of `subject`, whose issuer certificate is `issuer` (RFC 5280 §6.3.3): the CRL must be issued by that
 * CA (name), which may sign CRLs, and signed by its key (§6.3.3 (f), (g)), cover the certificate (issuingDistributionPoint scope, §5.2.5),
 * then a listed serial is `revoked` (even in a CRL past its nextUpdate: a revocation is never taken back by time), and an
 * unlisted one is `good` only while thisUpdate <= now < nextUpdate (§5.1.2.4-5; a CRL without nextUpdate is not
 * conforming and is not trusted to say "good").
 */
export async function judge(crl: Crl, subject: x509.X509Certificate, subjectIsCa: boolean, issuer: x509.X509Certificate, now: Date): Promise<CrlVerdict> {
  if (crl.unusable) return { verdict: 'unusable', reason: crl.unusable };
  if (crl.issuer !== subject.issuer) return { verdict: 'unusable', reason: 'it is not issued by the certificate issuer' };
  const notSigned = await crlSignerProblem(crl, issuer);
  if (notSigned) return { verdict: 'unusable', reason: notSigned };
  const scope = crl.scope;
  if (scope && ((scope.caOnly && !subjectIsCa) || (scope.userOnly && subjectIsCa)))
    return { verdict: 'unusable', reason: 'it does not cover this kind of certificate' };
  if (scope?.uris.length && !distributionPoints(subject).urls.some((u) => scope.uris.includes(u)))
    return { verdict: 'unusable', reason: 'it covers another distribution point' };
  if (crl.crl.findRevoked(subject)) return { verdict: 'revoked' };
  if (crl.thisUpdate.getTime() > now.getTime() + 60_000) return { verdict: 'unusable', reason: 'its thisUpdate is in the future' };
  if (!crl.nextUpdate) return { verdict: 'unusable', reason: 'it has no nextUpdate' };
  if (crl.nextUpdate <= now) return { verdict: 'unusable', reason: `it is past its nextUpdate (${crl.nextUpdate.toISOString()})` };
  return { verdict: 'good' };
}
