/**
 * One-call document verification: passive authentication (ICAO 9303-11 §5.1: data group hashes, SOD
 * signature, DS→CSCA chain and how current its CRLs are) plus optional clone detection (Active Authentication §6.1, Chip Authentication
 * §6.2). Every failed check is listed; `status` is the first failure in step order, else PASS.
 * Throws Icao9303Error only when the SOD itself cannot be decoded (unusable input).
 */
import { Icao9303Error } from '../errors.js';
import { parseSod, type Sod } from '../sod/sod.js';
import { checkDataGroupHashes, type DataGroupHashCheck } from '../pa/dataGroupHashes.js';
import { checkSignerSignature, type SignerSignatureCheck } from '../pa/signerSignature.js';
import { checkCertificateChain, type ChainCheck } from '../pa/certificateChain.js';
import { checkCrlFreshness, type CrlFreshnessCheck, type CrlFreshnessPolicy } from '../pa/crlFreshness.js';
import { DocumentCertificate, type CertificateSummary } from '../pki/certificate.js';
import type { TrustStore } from '../pki/trustStore.js';
import { parseDg14 } from '../lds/dg14.js';
import { parseDg15 } from '../lds/dg15.js';
import { verifyActiveAuthentication, type ActiveAuthCheck } from '../aa/activeAuth.js';
import { isChallengeDg14, verifyChipAuthenticationResponse, type ChipAuthCheck, type ChipAuthEvidence } from '../ca/chipAuth.js';
import { overallStatus, STATUS, type Failure, type VerificationStatus } from './status.js';
import { summarizeDocument, type DocumentSummary } from './documentSummary.js';
import { timed } from './timing.js';

export interface VerifyDocumentInput {
  /** EF.SOD bytes (tag 77) */
  sod: Uint8Array;
  /** presented data groups by number, each the complete file (tag, length, value) */
  dataGroups?: ReadonlyMap<number, Uint8Array>;
  trustStore: TrustStore;
  /** verification time (default: now) */
  at?: Date;
  /** DS certificate when the SOD does not embed one */
  documentSignerCertificate?: Uint8Array;
  activeAuth?: { challenge: Uint8Array; signature: Uint8Array; hash?: string };
  /** the chip's answer to a challenge from startChipAuthentication (the terminal state never leaves the verifier) */
  chipAuth?: ChipAuthEvidence;
  /** What a CRL past its nextUpdate does (default: reported, no grace, not refused): the deployment's policy. */
  crlPolicy?: CrlFreshnessPolicy;
}

const REPORT_OUTDATED_CRLS: CrlFreshnessPolicy = { graceHours: 0, outdated: 'warn' };

/** The signer check as reported (JSON-friendly): the certificate summarised, the signing time as ISO text. */
export type SignatureCheckResult = Omit<SignerSignatureCheck, 'signer' | 'signingTime'> & {
  signingTime?: string;
  documentSigner?: CertificateSummary;
};

export interface VerifyDocumentResult {
  status: VerificationStatus;
  failures: Failure[];
  checks: {
    dataGroupHashes: DataGroupHashCheck;
    documentSignature: SignatureCheckResult;
    certificateChain: ChainCheck;
    crlFreshness: CrlFreshnessCheck;
    activeAuthentication?: ActiveAuthCheck;
    chipAuthentication?: ChipAuthCheck;
  };
  document: DocumentSummary & {
    ldsSecurityObjectVersion: number;
    ldsVersion?: string;
    hashAlgorithm: string;
    dataGroupsInSod: number[];
  };
}

export function verifyDocument(input: VerifyDocumentInput): VerifyDocumentResult {
  const at = input.at ?? new Date();
  const dataGroups = input.dataGroups ?? new Map<number, Uint8Array>();
  const failures: Failure[] = [];
  const { sod, hashes, sig, chain, crlFreshness } = timed('pa', () => passiveAuthentication(input, dataGroups, at, failures));
  const activeAuthentication = input.activeAuth ? timed('aa', () => runActiveAuth(input.activeAuth!, dataGroups, failures)) : undefined;
  const chipAuthentication = input.chipAuth ? timed('ca', () => runChipAuth(input.chipAuth!, dataGroups, failures)) : undefined;

  return {
    status: overallStatus(failures),
    failures,
    checks: {
      dataGroupHashes: hashes,
      documentSignature: reportSignature(sig),
      certificateChain: chain,
      crlFreshness,
      ...(activeAuthentication ? { activeAuthentication } : {}),
      ...(chipAuthentication ? { chipAuthentication } : {}),
    },
    document: {
      ...summarizeDocument(dataGroups),
      ldsSecurityObjectVersion: sod.ldsSecurityObject.version,
      ldsVersion: sod.ldsSecurityObject.ldsVersion,
      hashAlgorithm: sod.ldsSecurityObject.hashAlgorithm,
      dataGroupsInSod: sod.ldsSecurityObject.dataGroupHashes.map((d) => d.dataGroup),
    },
  };
}

/** ICAO 9303-11 §5.1: SOD parsed once, then data group hashes, SOD signature, DS→CSCA chain and its CRLs on the parsed values. */
function passiveAuthentication(input: VerifyDocumentInput, dataGroups: ReadonlyMap<number, Uint8Array>, at: Date, failures: Failure[]) {
  const sod: Sod = parseSod(input.sod);

  const hashes = checkDataGroupHashes(sod, dataGroups);
  for (const r of hashes.results.filter((x) => !x.ok)) {
    failures.push({
      status: STATUS.BAD_DOCUMENT_HASHES,
      check: 'dataGroupHashes',
      reason: `DG${r.dataGroup}: ${r.reason === 'NOT_IN_SOD' ? 'not listed in the SOD' : 'hash differs from the SOD'} (9303-11 §5.1)`,
    });
  }

  const signerCertificate = input.documentSignerCertificate
    ? DocumentCertificate.fromDer(input.documentSignerCertificate, 'documentSignerCertificate')
    : undefined;
  const sig = checkSignerSignature(sod, { signerCertificate });
  for (const p of sig.problems) failures.push({ status: STATUS.BAD_DOCUMENT_SIGNATURE, check: 'documentSignature', reason: p });

  let chain: ChainCheck;
  if (sig.signer) {
    try {
      chain = checkCertificateChain(sig.signer, input.trustStore, at, sig.signingTime);
    } catch (e) {
      if (!(e instanceof Icao9303Error)) throw e;
      chain = {
        ok: false,
        path: [],
        signingReferenceTime: at.toISOString(),
        signingReferenceSource: 'verificationTime',
        revocationChecked: false,
        revocationLists: [],
        problems: [e.message],
      };
    }
  } else {
    chain = {
      ok: false,
      path: [],
      signingReferenceTime: at.toISOString(),
      signingReferenceSource: 'verificationTime',
      revocationChecked: false,
      revocationLists: [],
      problems: ['no Document Signer certificate to validate'],
    };
  }
  for (const p of chain.problems) failures.push({ status: STATUS.BAD_COUNTRY_SIGNER_CHAIN, check: 'certificateChain', reason: p });
  // A revocation status that cannot be known is no valid chain when the policy refuses it (RFC 5280 §6.3.3: UNDETERMINED).
  const crlFreshness = checkCrlFreshness(chain.revocationLists, at, input.crlPolicy ?? REPORT_OUTDATED_CRLS);
  if (!crlFreshness.ok) failures.push({ status: STATUS.BAD_COUNTRY_SIGNER_CHAIN, check: 'crlFreshness', reason: crlFreshness.reason! });

  return { sod, hashes, sig, chain, crlFreshness };
}

function runActiveAuth(aa: NonNullable<VerifyDocumentInput['activeAuth']>, dgs: ReadonlyMap<number, Uint8Array>, failures: Failure[]): ActiveAuthCheck {
  const dg15Bytes = dgs.get(15);
  const fail = (reason: string): ActiveAuthCheck => {
    failures.push({ status: STATUS.BAD_CLONE_DETECTION, check: 'activeAuthentication', reason });
    return { ok: false, algorithm: 'RSA-ISO9796-2', problems: [reason] };
  };
  if (!dg15Bytes) return fail('DG15 (Active Authentication public key) not presented (9303-11 §6.1)');
  try {
    const dg14Bytes = dgs.get(14);
    const r = verifyActiveAuthentication(parseDg15(dg15Bytes), aa.challenge, aa.signature, {
      hash: aa.hash,
      dg14: dg14Bytes ? parseDg14(dg14Bytes) : undefined,
    });
    for (const p of r.problems) failures.push({ status: STATUS.BAD_CLONE_DETECTION, check: 'activeAuthentication', reason: p });
    return r;
  } catch (e) {
    if (!(e instanceof Icao9303Error)) throw e;
    return fail(e.message);
  }
}

function runChipAuth(evidence: ChipAuthEvidence, dgs: ReadonlyMap<number, Uint8Array>, failures: Failure[]): ChipAuthCheck {
  const dg14Bytes = dgs.get(14);
  let r: ChipAuthCheck;
  if (!dg14Bytes) r = { ok: false, problems: ['DG14 (chip authentication key) not presented (9303-11 §6.2)'] };
  // The key the chip proved must be the one of the presented DG14, which the SOD hashes (9303-11 §6.2, §5.1)
  else if (!isChallengeDg14(evidence.state, dg14Bytes))
    r = { ok: false, problems: ['the DG14 presented is not the one the Chip Authentication challenge was made for (9303-11 §6.2)'] };
  else r = verifyChipAuthenticationResponse(evidence.state, evidence.responseApdu);
  if (!r.ok)
    for (const p of r.problems.length ? r.problems : ['chip authentication failed'])
      failures.push({ status: STATUS.BAD_CLONE_DETECTION, check: 'chipAuthentication', reason: p });
  return r;
}

function reportSignature({ signer, signingTime, ...rest }: SignerSignatureCheck): SignatureCheckResult {
  return { ...rest, signingTime: signingTime?.toISOString(), documentSigner: signer?.summary() };
}
