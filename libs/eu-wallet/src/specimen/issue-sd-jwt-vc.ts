/**
 * Test PID credentials in SD-JWT VC form, for tests and customer-test only (signed by the test PKI, never trusted in
 * production). Issued with @sd-jwt/sd-jwt-vc's issuer API: ES256 by the test PID provider's signer, x5c its chain,
 * typ dc+sd-jwt, every PID claim selectively disclosable as ARF Annex 3.01 (PID Rulebook) §4 encodes them.
 */
import { createHash, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { subjectAltNames } from '../trust/certificate-names.js';
import type { TestSigner } from './test-pki.js';

/** The PID Rulebook's SD-JWT VC claim names (§4.1): OIDC and eKYC names, and its own private names. */
export const SPECIMEN_PID_CLAIMS = {
  given_name: 'Erika',
  family_name: 'Mustermann',
  birthdate: '1984-01-26',
  place_of_birth: { locality: 'Berlin', country: 'DE' },
  nationalities: ['DE', 'FR'],
  address: { street_address: 'Heidestraße', house_number: '17', locality: 'Köln', postal_code: '51147', country: 'DE' },
  // "age_equal_or_over": one object with a boolean per age, each age its own disclosure (PID Rulebook §4.1.1 note).
  age_equal_or_over: { '16': true, '18': true, '21': true, '65': false },
  age_in_years: 41,
  age_birth_year: 1984,
  birth_family_name: 'Gabler',
  issuing_authority: 'Test PID Provider',
  issuing_country: 'UT',
  date_of_expiry: '2030-01-01',
};

export interface IssueSdJwtVcOptions {
  signer: TestSigner;
  /** The holder's public key, bound through cnf.jwk. */
  holderKey: KeyObject;
  claims?: Record<string, unknown>;
  /** `iss`; null for none. Default: the one the signer's certificate names (see issuerNamedBy). */
  iss?: string | null;
  vct?: string;
  issuedAt?: Date;
  /** Default: a year after issuedAt. */
  expiresAt?: Date;
  status?: { uri: string; idx: number };
  /** Extra or replaced JOSE header parameters (tests of typ and alg). */
  header?: Record<string, unknown>;
  /** Which claims are selectively disclosable; default: every PID claim, nested members and array elements too. */
  disclosureFrame?: Record<string, unknown>;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The disclosure frame of @sd-jwt: each top-level claim, each member of an object claim, each element of an array. */
export function everyClaimDisclosable(claims: Record<string, unknown>): Record<string, unknown> {
  const frame: Record<string, unknown> = { _sd: Object.keys(claims) };
  for (const [name, value] of Object.entries(claims)) {
    if (Array.isArray(value)) frame[name] = { _sd: value.map((_, i) => i) };
    else if (typeof value === 'object' && value !== null) frame[name] = { _sd: Object.keys(value) };
  }
  return frame;
}

/** An ES256 JWS signer (R || S, RFC 7518 §3.4) with a node:crypto key, as @sd-jwt's Signer wants it. */
export const es256Signer = (privateKey: KeyObject) => (data: string) =>
  sign('sha256', Buffer.from(data, 'ascii'), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
const hasher = (data: string | ArrayBuffer) =>
  new Uint8Array(
    createHash('sha256')
      .update(typeof data === 'string' ? data : Buffer.from(data))
      .digest(),
  );
const saltGenerator = (length: number) => randomBytes(length).toString('base64url');

/**
 * The `iss` a verifier accepts with this signer's x5c leaf (sd-jwt-vc/issuer-binding.ts): its first SAN URI, else
 * `https://` and its first SAN dNSName, else none (SD-JWT VC draft -13 §3.5: the Issuer is then the certificate's
 * subject). So the specimen issuers never claim a name their certificate does not give them, whatever signer a test
 * or customer-test (whose sealed PID provider may predate its SAN) hands them.
 */
export function issuerNamedBy(signer: TestSigner): string | undefined {
  const names = subjectAltNames(new X509Certificate(signer.chain[0]));
  return names.uri[0] ?? (names.dns[0] ? `https://${names.dns[0]}` : undefined);
}

/** Issues an SD-JWT VC (`<issuer JWT>~<disclosures>~`) as a PID provider would hand it to a wallet. */
export async function issueSdJwtVc(options: IssueSdJwtVcOptions): Promise<string> {
  const issuedAt = options.issuedAt ?? new Date();
  const expiresAt = options.expiresAt ?? new Date(issuedAt.getTime() + 365 * 86_400_000);
  const claims = options.claims ?? SPECIMEN_PID_CLAIMS;
  const issuer = new SDJwtVcInstance({ signer: es256Signer(options.signer.privateKey), signAlg: 'ES256', hasher, hashAlg: 'sha-256', saltGenerator });
  const iss = options.iss === undefined ? issuerNamedBy(options.signer) : (options.iss ?? undefined);
  const payload = {
    ...(iss !== undefined ? { iss } : {}),
    vct: options.vct ?? 'urn:eudi:pid:1',
    iat: seconds(issuedAt),
    exp: seconds(expiresAt),
    cnf: { jwk: options.holderKey.export({ format: 'jwk' }) },
    ...(options.status ? { status: { status_list: options.status } } : {}),
    ...claims,
  };
  const x5c = options.signer.chain.map((der) => Buffer.from(der).toString('base64'));
  return issuer.issue(payload, (options.disclosureFrame ?? everyClaimDisclosable(claims)) as never, { header: { x5c, ...options.header } });
}
