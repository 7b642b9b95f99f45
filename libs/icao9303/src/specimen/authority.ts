/**
 * Specimen PKI for tests and customer-test environments: a self-signed CSCA and a Document Signer it
 * issues (profiles after ICAO 9303-12 §7.2, simplified), generated with @peculiar/x509 on Node's WebCrypto.
 * NOT for production documents.
 */
// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import { KeyObject, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { DocumentCertificate } from '../pki/certificate.js';
import { TrustStore } from '../pki/trustStore.js';

x509.cryptoProvider.set(webcrypto as never);

type CryptoKeyPair = webcrypto.CryptoKeyPair;

export type SpecimenKeyType = 'EC' | 'RSA';

export interface SpecimenKeyPair {
  cryptoKeys: CryptoKeyPair;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export interface SpecimenAuthority {
  country: string;
  keyType: SpecimenKeyType;
  csca: { certificate: DocumentCertificate; keys: SpecimenKeyPair };
  documentSigner: { certificate: DocumentCertificate; keys: SpecimenKeyPair };
  /** a trust store holding only this authority's CSCA */
  trustStore(): TrustStore;
}

export interface SpecimenAuthorityOptions {
  /** ISO 3166-1 alpha-2 country for the certificate names (default "UT", Utopia) */
  country?: string;
  keyType?: SpecimenKeyType;
  /** start of validity for both certificates (default: now − 1 day) */
  notBefore?: Date;
  cscaValidityYears?: number;
  dsValidityYears?: number;
  name?: string;
}

const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const RSA = { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' } as const;

export async function generateSpecimenKeyPair(type: SpecimenKeyType): Promise<SpecimenKeyPair> {
  const cryptoKeys = (await webcrypto.subtle.generateKey(type === 'EC' ? EC : RSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  return { cryptoKeys, privateKey: KeyObject.from(cryptoKeys.privateKey), publicKey: KeyObject.from(cryptoKeys.publicKey) };
}

const addYears = (d: Date, y: number) => new Date(d.getTime() + y * 365.25 * 86400_000);

export async function createSpecimenAuthority(options: SpecimenAuthorityOptions = {}): Promise<SpecimenAuthority> {
  const country = options.country ?? 'UT';
  const keyType = options.keyType ?? 'EC';
  const notBefore = options.notBefore ?? new Date(Date.now() - 86400_000);
  const label = options.name ?? 'Specimen';
  const signingAlgorithm = keyType === 'EC' ? { name: 'ECDSA', hash: 'SHA-256' } : { name: 'RSASSA-PKCS1-v1_5' };
  const cscaKeys = await generateSpecimenKeyPair(keyType);
  const dsKeys = await generateSpecimenKeyPair(keyType);
  const cscaName = `C=${country}, O=${label} Authority, CN=${label} CSCA`;
  const csca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: cscaName,
    notBefore,
    notAfter: addYears(notBefore, options.cscaValidityYears ?? 15),
    keys: cscaKeys.cryptoKeys as never,
    signingAlgorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(cscaKeys.cryptoKeys.publicKey as never),
    ],
  });
  const ds = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: `C=${country}, O=${label} Authority, CN=${label} Document Signer`,
    issuer: csca.subject,
    notBefore,
    notAfter: addYears(notBefore, options.dsValidityYears ?? 10),
    publicKey: dsKeys.cryptoKeys.publicKey as never,
    signingKey: cscaKeys.cryptoKeys.privateKey as never,
    signingAlgorithm,
    extensions: [
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      await x509.AuthorityKeyIdentifierExtension.create(cscaKeys.cryptoKeys.publicKey as never),
    ],
  });
  const cscaCert = DocumentCertificate.fromDer(new Uint8Array(csca.rawData));
  return {
    country,
    keyType,
    csca: { certificate: cscaCert, keys: cscaKeys },
    documentSigner: { certificate: DocumentCertificate.fromDer(new Uint8Array(ds.rawData)), keys: dsKeys },
    trustStore() {
      const store = new TrustStore();
      store.addCsca(cscaCert);
      return store;
    },
  };
}

/** Issues a CRL for the authority's CSCA revoking the given serial numbers (hex), e.g. the DS serial "02". */
export async function issueSpecimenCrl(authority: SpecimenAuthority, revokedSerials: string[], at = new Date()): Promise<Uint8Array> {
  const crl = await x509.X509CrlGenerator.create({
    issuer: new x509.X509Certificate(authority.csca.certificate.der).subject,
    thisUpdate: new Date(at.getTime() - 3600_000),
    nextUpdate: new Date(at.getTime() + 30 * 86400_000),
    entries: revokedSerials.map((serialNumber) => ({ serialNumber, revocationDate: new Date(at.getTime() - 3600_000) })),
    signingKey: authority.csca.keys.cryptoKeys.privateKey as never,
    signingAlgorithm: (authority.keyType === 'EC' ? { name: 'ECDSA', hash: 'SHA-256' } : { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }) as never,
  });
  return new Uint8Array(crl.rawData);
}
