import { Verifier, type IssuerSignedDocument, type MdocContext, type VerificationAssessment } from '@animo-id/mdoc';
import { WalletCheckError, type WalletCheckCode } from '../errors.js';
import { verifyCertificateChain, type VerifiedChain } from '../trust/certificate-chain.js';
import type { DocumentShape } from './device-response-shape.js';
import { COSE_ALGORITHMS } from './mdoc-context.js';

/**
 * What @animo-id/mdoc's Verifier reports, as this library's codes. It reports each check through a callback (the
 * default one throws a generic error on the first failure); the checks are told apart by their category and text,
 * which the tests pin for the installed version (an expired MSO must come out `expired`, a foreign IACA
 * `untrusted_issuer`).
 */
function codeOf(check: VerificationAssessment): WalletCheckCode {
  if (check.category === 'DOCUMENT_FORMAT') return 'malformed';
  if (/valid at the time/i.test(check.check)) return 'expired';
  if (/certificate|country|issuing_/i.test(check.check)) return 'untrusted_issuer';
  return 'invalid_signature';
}

/** Runs one of the library's verifier steps and throws the first failure it reports. */
async function libraryCheck(run: (onCheckG: (check: VerificationAssessment) => void) => Promise<void>): Promise<void> {
  const failures: VerificationAssessment[] = [];
  await run((check) => {
    if (check.status === 'FAILED') failures.push(check);
  });
  const [first] = failures;
  if (first) throw new WalletCheckError(codeOf(first), `mdoc check failed: ${first.check}`);
}

/**
 * IssuerAuth (ISO 18013-5 9.1.2.4) and the issuer data it signs (9.3.1 steps 2-5):
 * - the COSE alg is one we accept (ES256/384/512), else `unexpected_credential`;
 * - x5chain chains to a configured IACA, each certificate valid now (9.3.3, Annex B), else `untrusted_issuer`;
 * - the library then checks the signature with the leaf's key, the MSO signing date within the DS certificate, the
 *   validity period, the DS certificate's country, every presented item's digest against valueDigests of its
 *   namespace and digestID (9.1.2.5), and for the mDL namespace issuing_country against the DS certificate;
 * - and the validity period again here, for it decides the `expired` code and must not hang on a text match.
 */
export async function checkIssuerAuth(
  shape: DocumentShape,
  document: IssuerSignedDocument,
  trustAnchors: readonly Uint8Array[],
  now: Date,
  ctx: MdocContext,
): Promise<VerifiedChain> {
  const alg = typeof shape.issuerAuthAlg === 'number' ? COSE_ALGORITHMS.get(shape.issuerAuthAlg) : undefined;
  if (!alg) throw new WalletCheckError('unexpected_credential', 'the IssuerAuth algorithm is not one of ES256, ES384, ES512');
  if (!['SHA-256', 'SHA-384', 'SHA-512'].includes(shape.mso.digestAlgorithm)) {
    throw new WalletCheckError('unexpected_credential', 'the MSO digest algorithm is not one of SHA-256, SHA-384, SHA-512');
  }
  const chain = verifyCertificateChain(shape.x5chain, trustAnchors, now);
  const verifier = new Verifier();
  const { issuerAuth } = document.issuerSigned;
  const trustedCertificates = [...trustAnchors];
  await libraryCheck((onCheckG) =>
    verifier.verifyIssuerSignature({ issuerAuth, trustedCertificates, now, disableCertificateChainValidation: false, onCheckG }, ctx),
  );
  const { validFrom, validUntil } = shape.mso;
  if (now < validFrom) throw new WalletCheckError('expired', `the mdoc is valid only from ${validFrom.toISOString()}`);
  if (now > validUntil) throw new WalletCheckError('expired', `the mdoc was valid until ${validUntil.toISOString()}`);
  await libraryCheck((onCheckG) => verifier.verifyData({ mdoc: document, onCheckG }, ctx));
  checkDigestsPresent(shape);
  return chain;
}

/**
 * ISO 18013-5 9.3.1 step 4, said once more without the library: each presented item's digestID has a digest in
 * valueDigests of its own namespace. The library's verifyData compares them; this keeps the refusal of an item the
 * issuer never signed independent of that.
 */
function checkDigestsPresent(shape: DocumentShape): void {
  for (const [ns, items] of shape.items) {
    const digests = shape.mso.valueDigests.get(ns);
    for (const item of items) {
      if (!digests?.has(item.digestId)) throw new WalletCheckError('invalid_signature', `element ${item.elementIdentifier} of ${ns} has no digest in the MSO`);
    }
  }
}
