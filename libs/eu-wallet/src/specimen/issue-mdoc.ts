/**
 * Test mdocs (ISO 18013-5) for tests and customer-test only: issued with @animo-id/mdoc's Document builder, signed by
 * a test IACA's Document Signer (createTestSigner). Never trusted in production: the IACA is generated per run.
 */
import { createHash, randomBytes, sign } from 'node:crypto';
import { cborDecode, cborEncode, DataItem, DateOnly, Document, MDoc, type MdocContext } from '@animo-id/mdoc';
import type { JWK } from 'jose';
import type { TestSigner } from './test-pki.js';

export interface TestMdocInput {
  /** `eu.europa.ec.eudi.pid.1` (PID, namespace of the same name) or `org.iso.18013.5.1.mDL` (namespace `org.iso.18013.5.1`). */
  docType: string;
  /** Element values by namespace; full-dates through `fullDate`, tdates as Date, byte strings as Uint8Array. */
  namespaces: Record<string, Record<string, unknown>>;
  signer: TestSigner;
  /** The holder's public key (EC P-256 JWK), signed into the MSO as deviceKeyInfo. */
  deviceKey: JWK;
  validFrom?: Date;
  validUntil?: Date;
  status?: { uri: string; idx: number };
}

/** A full-date element value (CBOR tag 1004, RFC 8943), as ISO 18013-5 7.2.1 wants birth_date, expiry_date... */
export const fullDate = (isoDate: string): unknown => new DateOnly(isoDate);

const HASHES = { 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' } as const;

function issuerContext(signer: TestSigner): Pick<MdocContext, 'crypto' | 'cose'> {
  const unused = () => {
    throw new Error('not used to issue');
  };
  return {
    crypto: {
      random: (length) => new Uint8Array(randomBytes(length)),
      digest: ({ digestAlgorithm, bytes }) => new Uint8Array(createHash(HASHES[digestAlgorithm]).update(bytes).digest()),
      calculateEphemeralMacKeyJwk: unused,
    },
    cose: {
      sign1: {
        // The Sig_structure the library builds (RFC 9052 4.4), signed with the Document Signer's key in r||s form.
        sign: ({ sign1 }) => new Uint8Array(sign('sha256', sign1.getRawSigningData().data, { key: signer.privateKey, dsaEncoding: 'ieee-p1363' })),
        verify: unused,
      },
      mac0: { sign: unused, verify: unused },
    },
  };
}

/**
 * Issues one test mdoc and returns it as an encoded `MDoc` holding one issuer-signed document:
 * `{version: "1.0", documents: [{docType, issuerSigned: {nameSpaces, issuerAuth}}], status: 0}` — the DeviceResponse
 * shape without deviceSigned, which is what @auth0/mdl's `DeviceResponse.from(bytes)` (the holder side of the tests)
 * and @animo-id/mdoc's both load. The x5chain holds the Document Signer's certificate only; the IACA is the anchor.
 */
export async function issueTestMdoc(input: TestMdocInput): Promise<Uint8Array> {
  const ctx = issuerContext(input.signer);
  const document = new Document(input.docType, ctx);
  for (const [ns, values] of Object.entries(input.namespaces)) document.addIssuerNameSpace(ns, values);
  const signed = new Date();
  const validFrom = input.validFrom ?? signed;
  document
    .addDeviceKeyInfo({ deviceKey: input.deviceKey })
    .addValidityInfo({ signed, validFrom, validUntil: input.validUntil ?? new Date(validFrom.getTime() + 365 * 86_400_000) })
    .useDigestAlgorithm('SHA-256');
  const issued = await document.sign(
    { issuerPrivateKey: input.signer.privateKey.export({ format: 'jwk' }) as JWK, issuerCertificate: input.signer.chain[0], alg: 'ES256' },
    ctx,
  );
  const bytes = new MDoc([issued]).encode();
  return input.status ? withStatus(bytes, input.status, input.signer) : bytes;
}

/**
 * The Document builder has no status reference, so one is added to the MSO and IssuerAuth signed again: MSO
 * `status: {status_list: {idx, uri}}` (ISO 18013-5 2nd edition; IETF Token Status List, Referenced Token in COSE).
 */
function withStatus(mdoc: Uint8Array, status: { uri: string; idx: number }, signer: TestSigner): Uint8Array {
  const decoded = cborDecode(mdoc) as Map<string, unknown>;
  const [doc] = decoded.get('documents') as Map<string, Map<string, unknown>>[];
  const issuerAuth = doc.get('issuerSigned')!.get('issuerAuth') as [Uint8Array, Map<number, unknown>, Uint8Array, Uint8Array];
  const mso = (cborDecode(issuerAuth[2]) as DataItem<Map<string, unknown>>).data;
  mso.set(
    'status',
    new Map([
      [
        'status_list',
        new Map<string, unknown>([
          ['idx', status.idx],
          ['uri', status.uri],
        ]),
      ],
    ]),
  );
  issuerAuth[2] = cborEncode(DataItem.fromData(mso));
  const toBeSigned = cborEncode(['Signature1', issuerAuth[0], new Uint8Array(0), issuerAuth[2]]);
  issuerAuth[3] = new Uint8Array(sign('sha256', toBeSigned, { key: signer.privateKey, dsaEncoding: 'ieee-p1363' }));
  return cborEncode(decoded);
}
