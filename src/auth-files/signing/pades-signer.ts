// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createPrivateKey, createPublicKey, KeyObject, randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import type { PadesSigner } from './cades.js';

x509.cryptoProvider.set(webcrypto as never);

const RSA = { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' } as const;
const EC_CURVES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

export interface SignerPem {
  privateKeyPem: string;
  /** The signer's certificate first, then its issuers. */
  chainPem: string;
}

/**
 * The signer from PEM text: the key (PKCS#8 or a traditional RSA/EC key; RSA signs with PKCS#1 v1.5, EC with
 * ECDSA, both SHA-256) and the chain, signer first. Refuses a chain whose first certificate is not the key's, or
 * that is out of date, so a misconfiguration shows at start rather than as invalid signatures.
 */
export async function signerFromPem(pem: SignerPem, now = new Date()): Promise<PadesSigner> {
  const chain = splitPem(pem.chainPem);
  if (chain.length === 0) throw new Error('the PAdES certificate chain holds no certificate');
  const key = createPrivateKey(pem.privateKeyPem);
  const certificate = new X509Certificate(chain[0]);
  const publicDer = (k: KeyObject) => k.export({ type: 'spki', format: 'der' });
  if (!publicDer(createPublicKey(key)).equals(publicDer(certificate.publicKey)))
    throw new Error('the first certificate of the PAdES chain is not the signing key’s');
  if (new Date(certificate.validTo) <= now || new Date(certificate.validFrom) > now)
    throw new Error(`the PAdES signing certificate is not valid now (${certificate.validFrom} – ${certificate.validTo})`);
  const algorithm =
    key.asymmetricKeyType === 'rsa'
      ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }
      : key.asymmetricKeyType === 'ec' && EC_CURVES[key.asymmetricKeyDetails?.namedCurve ?? '']
        ? { name: 'ECDSA', namedCurve: EC_CURVES[key.asymmetricKeyDetails!.namedCurve!], hash: 'SHA-256' }
        : undefined;
  if (!algorithm) throw new Error(`PAdES signing key type ${key.asymmetricKeyType} is not supported (RSA, or EC on P-256/384/521)`);
  const pkcs8 = key.export({ type: 'pkcs8', format: 'der' });
  const privateKey = await webcrypto.subtle.importKey('pkcs8', pkcs8, algorithm, false, ['sign']);
  return { privateKey, chain };
}

/** The DER certificates of a PEM bundle, in order. */
export function splitPem(pem: string): Buffer[] {
  return [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map((m) => Buffer.from(m[1].replace(/\s+/g, ''), 'base64'));
}

/**
 * customer-test's signer: a test CA and a signing certificate it issued (RSA 2048), so the chain a merchant sees
 * has the shape of a real one; named as a test signer so nobody takes it for a qualified one.
 */
export async function newTestSigner(host: string, now = new Date()): Promise<SignerPem> {
  const notBefore = new Date(now.getTime() - 60_000);
  const notAfter = new Date(notBefore.getTime() + 10 * 365.25 * 86400_000);
  const serial = () => `01${randomBytes(15).toString('hex')}`;
  const caKeys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=Identity broker customer-test PAdES CA (${host}), O=TEST ONLY`,
    notBefore,
    notAfter,
    keys: caKeys as never,
    signingAlgorithm: RSA,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  const signerKeys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const signer = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=Identity broker customer-test evidence signer (${host}), O=TEST ONLY`,
    issuer: ca.subject,
    notBefore,
    notAfter,
    publicKey: signerKeys.publicKey as never,
    signingKey: caKeys.privateKey as never,
    signingAlgorithm: RSA,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
      await x509.AuthorityKeyIdentifierExtension.create(ca, false),
      await x509.SubjectKeyIdentifierExtension.create(signerKeys.publicKey as never, false),
    ],
  });
  return {
    privateKeyPem: KeyObject.from(signerKeys.privateKey).export({ type: 'pkcs8', format: 'pem' }).toString(),
    chainPem: `${signer.toString('pem')}\n${ca.toString('pem')}\n`,
  };
}
