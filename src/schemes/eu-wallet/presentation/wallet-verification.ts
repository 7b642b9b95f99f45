import type { X509Certificate } from 'node:crypto';
import { type DocumentCheck, identityDocumentEvidence } from '../../../broker/spi/identity-assurance/identity-document-evidence.js';
import type { ElectronicRecordEvidence, EvidenceCheck, IdentityVerification } from '../../../broker/spi/identity-assurance/identity-verification.js';
import { CHECK_METHODS, DOCUMENT_TYPES } from '../../../broker/spi/identity-assurance/predefined-values.js';
import type { DocumentType } from '../../../verifier-claims/document-type.js';
import { icaoCodeOfAlpha2 } from '../../../verifier-claims/country-names.js';

/*
 * What a wallet login states in `verified_claims` (OpenID Identity Assurance Schema Definition 1.0 §5,
 * docs/eu-wallet.md#what-a-wallet-login-states-in-verified_claims): a PID or an mDL is an electronic record the issuer
 * keeps (§5.4.4.3), checked now; the service's own credential stands for the document verification it was issued
 * after (§5.4.4.1), made earlier.
 */

/** What a verified presentation tells about its credential. */
export interface PresentedCredential {
  /** The answering wallet transaction: the verification process, and the prefix of every check_id. */
  transactionId: string;
  /** When the presentation was verified. */
  presentedAt: Date;
  /** The credential's own type: the SD-JWT VC's `vct`, the mdoc's doctype. */
  type: string;
  /** The certificate that signed the credential and the trust anchor its chain ended at. */
  signer: { leaf: X509Certificate; anchor: X509Certificate };
  /** The issuing country the credential states, as the broker's claims carry it (ICAO code). */
  issuingCountry?: string;
  /** When the issuer signed it (SD-JWT VC `iat`, the MSO's `signed`). */
  issuedAt?: Date;
  /** When it stops being valid (SD-JWT VC `exp`, the MSO's `validUntil`). */
  expiresAt?: Date;
  /** It chains to a test anchor (customer-test's generated PID provider or IACA, or the service's own in customer-test). */
  test: boolean;
}

/** The service's own credential: what it carries of the original verification (reusedIdentityClaims). */
export interface PresentedReusedIdentity extends PresentedCredential {
  /** Its claims, in spec 2.1 form (document_type, issuing_country, document_number, date_of_expiry, facematch_level). */
  claims: Readonly<Record<string, unknown>>;
  /** `verified_at`: the day (ISO) of the original document verification. */
  verifiedAt?: string;
}

export const REUSED_IDENTITY_CREDENTIAL = 'reused_identity';

/** A PID (SD-JWT VC or mdoc) or an mDL: the credential as an electronic record, checked at the presentation. */
export function walletCredentialVerification(credential: PresentedCredential): IdentityVerification {
  const time = credential.presentedAt.toISOString();
  return { time, process: credential.transactionId, test: credential.test, evidence: [credentialRecord(credential, time)] };
}

/**
 * The service's own credential: the document verification it was issued after, as `document` evidence, at its time.
 * The credential carries the day of that verification only (`verified_at`, credential-claims.ts), so `time` is that
 * day at 00:00:00Z (a merchant's max_age then counts from the start of the day: never younger than it was). It does
 * not carry the original transaction id, so `process` is the wallet transaction's, and each check_id is
 * `<wallet transaction>.original.<check>`: the original verification's checks, as the credential tells them, not
 * checks this transaction ran. A credential whose document type has no predefined value, or without `verified_at`,
 * is stated as what was checked now instead: an electronic record of the credential's own type.
 */
export function reusedIdentityVerification(credential: PresentedReusedIdentity): IdentityVerification {
  const presentedAt = credential.presentedAt.toISOString();
  const reused = { credential: REUSED_IDENTITY_CREDENTIAL, presentedAt };
  const documentType = DOCUMENT_TYPES[credential.claims.document_type as DocumentType];
  if (!documentType || !credential.verifiedAt) {
    const time = credential.verifiedAt ? startOfDay(credential.verifiedAt) : presentedAt;
    return { time, process: credential.transactionId, test: credential.test, evidence: [credentialRecord(credential, presentedAt)], reused };
  }
  const time = startOfDay(credential.verifiedAt);
  const evidence = identityDocumentEvidence(credential.claims, `${credential.transactionId}.original`, originalChecks(credential.claims), time);
  return { time, process: credential.transactionId, test: credential.test, evidence: [evidence], reused };
}

/**
 * The checks every issued credential's verification passed: passive authentication (a verification passes only with
 * it, recordVerification), and the face step when `facematch_level` is 1 or more (the auth-files report counts a face
 * match passed from level 1; the liveness rules accepted the frames before any match). Whether the chip was also
 * authenticated (active or chip authentication) is not in the credential, so it is not stated.
 */
function originalChecks(claims: Readonly<Record<string, unknown>>): DocumentCheck[] {
  const level = claims.facematch_level;
  return typeof level === 'number' && level >= 1 ? ['passive-authentication', 'face-match', 'liveness'] : ['passive-authentication'];
}

function credentialRecord(credential: PresentedCredential, time: string): ElectronicRecordEvidence {
  const country = credential.issuingCountry ? longIcao(credential.issuingCountry) : certificateCountry(credential.signer.leaf);
  const record: ElectronicRecordEvidence['record'] = {
    type: credential.type,
    source: { name: issuerName(credential.signer), ...(country ? { country_code: country } : {}) },
  };
  const created = isoTime(credential.issuedAt);
  if (created) record.created_at = created;
  const expiry = isoTime(credential.expiresAt)?.slice(0, 10);
  if (expiry) record.date_of_expiry = expiry;
  return { type: 'electronic_record', check_details: presentationChecks(credential.transactionId, time), record };
}

/** The issuer's signature, checked against a trust anchor; the holder's key binding: the wallet proved possession. */
const presentationChecks = (transactionId: string, time: string): EvidenceCheck[] => [
  { check_method: CHECK_METHODS.cryptographic, check_id: `${transactionId}.issuer-signature`, time },
  { check_method: CHECK_METHODS.authentication, check_id: `${transactionId}.key-binding`, time },
];

/**
 * The issuer as its certificates name it: the organization of the signing certificate, else of the trust anchor,
 * else the anchor's common name (the entry of the trust list), else the anchor's whole subject.
 */
function issuerName(signer: PresentedCredential['signer']): string {
  const leaf = subjectOf(signer.leaf);
  const anchor = subjectOf(signer.anchor);
  return leaf.O ?? anchor.O ?? anchor.CN ?? signer.anchor.subject.replace(/\n/g, ', ');
}

function subjectOf(certificate: X509Certificate): Record<string, string | undefined> {
  const parts: Record<string, string> = {};
  for (const line of certificate.subject.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) parts[line.slice(0, at)] ??= line.slice(at + 1);
  }
  return parts;
}

/** The signing certificate's country (X.520 C, ISO 3166-1 alpha-2), as an ICAO code like the credential's own. */
function certificateCountry(leaf: X509Certificate): string | undefined {
  const alpha2 = subjectOf(leaf).C;
  const icao = alpha2 && /^[A-Za-z]{2}$/.test(alpha2) ? icaoCodeOfAlpha2(alpha2.toUpperCase()) : undefined;
  return icao && longIcao(icao);
}

/** IDA Schema §5.4.4 country_code: ICAO 3-letter codes; Germany's one-letter `D` is DEU there (identityDocumentEvidence). */
const longIcao = (code: string) => (code === 'D' ? 'DEU' : code);

/** A date-time of the schema (RFC 3339: four-digit years), seconds being the precision of the credentials' own dates. */
const isoTime = (date: Date | undefined) =>
  date && Number.isFinite(date.getTime()) && date.getUTCFullYear() <= 9999 ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : undefined;

const startOfDay = (day: string) => `${day}T00:00:00Z`;
