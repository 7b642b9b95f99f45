import { createHash, createPublicKey, randomBytes, verify, X509Certificate } from 'node:crypto';
import type { MdocContext } from '@animo-id/mdoc';
import type { JWK } from 'jose';
import { verifyCertificateChain } from '../trust/certificate-chain.js';

/**
 * COSE algorithms accepted for IssuerAuth and DeviceAuth: ECDSA on the NIST curves (ISO 18013-5 9.1.2.4 and
 * 9.1.3.6; HAIP 1.0 asks for ES256, Node verifies the other two at no cost). Each is tied to its curve (RFC 9053
 * section 2.1 recommends it), so a P-384 key cannot stand behind an ES256 header.
 */
export const COSE_ALGORITHMS = new Map<number, { name: string; hash: string; crv: string }>([
  [-7, { name: 'ES256', hash: 'sha256', crv: 'P-256' }],
  [-35, { name: 'ES384', hash: 'sha384', crv: 'P-384' }],
  [-36, { name: 'ES512', hash: 'sha512', crv: 'P-521' }],
]);
const BY_NAME = new Map([...COSE_ALGORITHMS.values()].map((a) => [a.name, a]));

/** ECDSA over `data` with the raw r||s signature COSE uses (RFC 9053 2.1); false for any other alg or a bad key. */
export function verifyEs(algName: string, jwk: JWK, data: Uint8Array, signature: Uint8Array): boolean {
  const alg = BY_NAME.get(algName);
  if (!alg || jwk.kty !== 'EC' || jwk.crv !== alg.crv) return false;
  try {
    const key = createPublicKey({ key: { kty: 'EC', crv: jwk.crv, x: jwk.x, y: jwk.y }, format: 'jwk' });
    return verify(alg.hash, data, { key, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}

const nameField = (certificate: Uint8Array, field: string): string[] =>
  new X509Certificate(certificate).subject
    .split('\n')
    .filter((line) => line.startsWith(`${field}=`))
    .map((line) => line.slice(field.length + 1));

const refuse = (what: string) => () => {
  throw new Error(`${what} is not accepted: OpenID4VP gives the wallet no reader key, so only deviceSignature binds it`);
};

/**
 * The crypto callbacks @animo-id/mdoc asks of its user, on node:crypto, for verification at `now` against the
 * trust anchors: the certificate chain is this library's own check (verifyCertificateChain), MAC device
 * authentication is refused, and only the algorithms above verify.
 */
export function verifierContext(trustAnchors: readonly Uint8Array[], now: Date): MdocContext {
  return {
    crypto: {
      random: (length) => new Uint8Array(randomBytes(length)),
      digest: ({ digestAlgorithm, bytes }) => new Uint8Array(createHash(digestAlgorithm.replace('-', '').toLowerCase()).update(bytes).digest()),
      calculateEphemeralMacKeyJwk: refuse('deviceMac'),
    },
    cose: {
      sign1: {
        sign: refuse('signing'),
        verify: ({ sign1, jwk }) => {
          const { alg, data, signature } = sign1.getRawVerificationData();
          return verifyEs(alg, jwk, data, signature);
        },
      },
      mac0: { sign: refuse('deviceMac'), verify: () => false },
    },
    x509: {
      // The library asks for the "issuer name" field but means the Document Signer's subject (ISO 18013-5 9.3.3:
      // the DS certificate's countryName is the issuing country).
      getIssuerNameField: ({ certificate, field }) => nameField(certificate, field),
      getPublicKey: ({ certificate }) => new X509Certificate(certificate).publicKey.export({ format: 'jwk' }) as JWK,
      validateCertificateChain: ({ trustedCertificates, x5chain }) => {
        verifyCertificateChain(x5chain, trustedCertificates.length ? trustedCertificates : trustAnchors, now);
      },
      getCertificateData: ({ certificate }) => {
        const cert = new X509Certificate(certificate);
        return {
          issuerName: cert.issuer.replace(/\n/g, ', '),
          subjectName: cert.subject.replace(/\n/g, ', '),
          serialNumber: cert.serialNumber,
          thumbprint: cert.fingerprint256.replace(/:/g, '').toLowerCase(),
          notBefore: new Date(cert.validFrom),
          notAfter: new Date(cert.validTo),
          pem: cert.toString(),
        };
      },
    },
  };
}
