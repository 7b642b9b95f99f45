/**
 * Just enough of an SD-JWT VC issuer for the holder's tests, written here by hand with jose (not the service's
 * issuer): a self-signed P-256 signer in x5c, every top-level claim its own disclosure, and an object's members
 * disclosures of their own inside the object's (as age_equal_or_over in the contract).
 */
// @peculiar/x509 needs the Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { SignJWT, type JWK } from 'jose';

export interface TinySigner {
  privateKey: webcrypto.CryptoKey;
  /** The self-signed certificate, base64 DER, as x5c carries it. */
  certificate: string;
}

export async function tinySigner(): Promise<TinySigner> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=Stand-in credential issuer, C=UT',
    notBefore: new Date(),
    notAfter: new Date(Date.now() + 86400_000),
    keys: keys as never,
    signingAlgorithm: algorithm,
  });
  return { privateKey: keys.privateKey, certificate: Buffer.from(cert.rawData).toString('base64') };
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const digest = (disclosure: string) => createHash('sha256').update(disclosure).digest('base64url');

export interface TinyCredential {
  iss: string;
  vct: string;
  holderJwk: JWK;
  /** Claims, each selectively disclosable; a plain object's members are disclosable one by one. */
  claims: Record<string, unknown>;
}

/** `<jwt>~<disclosure>~…~`: the issued form, without key binding. */
export async function issueTinySdJwtVc(signer: TinySigner, input: TinyCredential): Promise<string> {
  const disclosures: string[] = [];
  const disclose = (name: string, value: unknown): string => {
    const disclosure = b64url([randomBytes(16).toString('base64url'), name, value]);
    disclosures.push(disclosure);
    return digest(disclosure);
  };
  const sd = Object.entries(input.claims).map(([name, value]) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? disclose(name, { _sd: Object.entries(value).map(([k, v]) => disclose(k, v)) })
      : disclose(name, value),
  );
  const payload = { iss: input.iss, vct: input.vct, exp: Math.floor(Date.now() / 1000) + 86400, cnf: { jwk: input.holderJwk }, _sd_alg: 'sha-256', _sd: sd };
  const jwt = await new SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: 'dc+sd-jwt', x5c: [signer.certificate] }).sign(signer.privateKey);
  return `${jwt}~${disclosures.join('~')}~`;
}
