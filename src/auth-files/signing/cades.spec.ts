import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { spawnSync } from 'node:child_process';
import { createHash, webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cadesDetachedSignature } from './cades.js';
import { newTestSigner, signerFromPem, type SignerPem } from './pades-signer.js';

x509.cryptoProvider.set(webcrypto as never);
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const withOpenssl = hasOpenssl || process.env.CI ? it : it.skip;

/** A self-signed EC signer on `namedCurve`, as PEM (customer-test's generated signer is RSA). */
async function ecSigner(namedCurve: string): Promise<SignerPem> {
  const algorithm = { name: 'ECDSA', namedCurve, hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01a2b3c4',
    name: `CN=CAdES test ${namedCurve}`,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 86_400_000),
    keys: keys as never,
    signingAlgorithm: algorithm,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return { privateKeyPem: `-----BEGIN PRIVATE KEY-----\n${pkcs8}\n-----END PRIVATE KEY-----\n`, chainPem: certificate.toString('pem') };
}

/** The detached CMS signature of PAdES (src/auth-files/signing/cades.ts), judged by OpenSSL's `cms -verify`. */
describe('the CAdES detached signature', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cades-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** openssl cms -verify of `signature` over `content` (the chain is not judged here: -noverify). */
  function opensslVerifies(signature: Buffer, content: Buffer): boolean {
    writeFileSync(join(dir, 'signature.der'), signature);
    writeFileSync(join(dir, 'content.bin'), content);
    const r = spawnSync('openssl', [
      'cms',
      '-verify',
      '-binary',
      '-noverify',
      '-inform',
      'DER',
      '-in',
      join(dir, 'signature.der'),
      '-content',
      join(dir, 'content.bin'),
      '-out',
      '/dev/null',
    ]);
    return r.status === 0;
  }

  withOpenssl.each([
    ['RSA (customer-test’s generated signer)', () => newTestSigner('cades.example')],
    ['ECDSA P-256', () => ecSigner('P-256')],
    ['ECDSA P-384', () => ecSigner('P-384')],
  ])('%s: verifies over the signed content, and not over other content', async (_name, makeSigner) => {
    const signer = await signerFromPem(await makeSigner());
    const content = Buffer.from('the byte ranges of a PDF around /Contents');
    const signature = await cadesDetachedSignature(createHash('sha256').update(content).digest(), signer);
    expect([opensslVerifies(signature, content), opensslVerifies(signature, Buffer.from('other bytes'))]).toEqual([true, false]);
  });
});
