import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSignerCertificate, createTestRoot } from '../../src/credential-issuer/keys/issuer-certificates.js';

const pem = (der: Uint8Array) =>
  `-----BEGIN CERTIFICATE-----\n${Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`;

/** An operator's files for VCI_ISSUER_KEY_FILE and VCI_ISSUER_CERTIFICATE_CHAIN_FILE (leaf, then root), and some wrong ones. */
export async function writeIssuerFiles() {
  const dir = mkdtempSync(join(tmpdir(), 'vci-files-'));
  const root = await createTestRoot('Operator Test Root', new Date(Date.now() + 5 * 365 * 86_400_000));
  const leaf = await createSignerCertificate(root, {
    commonName: 'Operator Issuer',
    dnsName: 'broker.example',
    uri: 'https://broker.example/vci',
    notAfter: new Date(Date.now() + 2 * 365 * 86_400_000),
  });
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  return {
    root,
    leaf,
    keyFile: write('issuer.key', leaf.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
    chainFile: write('chain.pem', pem(leaf.der) + pem(root.der)),
    leafOnlyFile: write('leaf.pem', pem(leaf.der)),
    rootFile: write('root.pem', pem(root.der)),
    otherKeyFile: write('other.key', generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
    p384KeyFile: write('p384.key', generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
    reversedChainFile: write('reversed.pem', pem(root.der) + pem(leaf.der)),
  };
}
