import type { X509Certificate } from 'node:crypto';
import { WalletCheckError } from '../errors.js';
import { subjectAltNames } from '../trust/certificate-names.js';

/**
 * Whether an SD-JWT VC's `iss` is an identifier its x5c leaf certificate names.
 *
 * @sd-jwt/sd-jwt-vc 0.19.0 follows draft-ietf-oauth-sd-jwt-vc-13 (its type metadata cites -13; HAIP 1.0 pins -13 too).
 * There, §3.5 "Issuer Signature Mechanisms": with `x5c` "the Issuer of the Verifiable Credential is the subject of the
 * end-entity certificate"; §3.2.2.2: `iss` is OPTIONAL and names the Issuer "when it is not conveyed by other means";
 * §10.2: verification rules must keep "the integrity of the relationship between the `iss` value of the SD-JWT, if
 * present, and the public keys of the Issuer". -13 no longer says how an `iss` is matched to a certificate; drafts -05
 * to -09 §3.5 did, and that is the rule applied here:
 *
 * - no `iss`: nothing to match; the Issuer is the leaf's subject (-13 §3.5);
 * - `iss` equal to a uniformResourceIdentifier SAN of the leaf (-09 §3.5 step 2, first half), whatever its scheme
 *   (customer-test's own issuer is `http://…/vci`; an exact URI the CA certified binds as well as an https one);
 * - or `iss` an https URI whose host equals a dNSName SAN of the leaf (-09 §3.5 step 2, second half; exact, no
 *   wildcards: RFC 5280 defines none in dNSName, and a port or a path does not take part);
 * - anything else, a non-string `iss` included, is refused: a credential may not claim an issuer its certificate does
 *   not name (-13 §10.2), or a trusted PID provider could issue under another one's name.
 *
 * Called after the signature check, so that a forged `iss` reads as a forgery (invalid_signature).
 */
export function checkIssuerNamedByLeaf(iss: unknown, leaf: X509Certificate): void {
  if (iss === undefined) return;
  if (typeof iss !== 'string' || iss.length === 0) throw new WalletCheckError('issuer_mismatch', 'the credential iss is not a string');
  const names = subjectAltNames(leaf);
  if (names.uri.includes(iss)) return;
  const url = URL.canParse(iss) ? new URL(iss) : undefined;
  if (url?.protocol === 'https:' && names.dns.includes(url.hostname.replace(/\.$/, ''))) return;
  throw new WalletCheckError(
    'issuer_mismatch',
    'the credential iss is not named by its x5c leaf certificate (no equal SAN URI, nor a SAN dNSName equal to the host of an https iss)',
  );
}
