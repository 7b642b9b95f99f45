/**
 * The CRLs of WALLET_TRUST_CRLS (docs/configuration.md): files or folders of CRLs, PEM (one or more `X509 CRL` blocks)
 * or DER, read by the config check at start (every file that is not a CRL named) and by the wallet scheme's trust.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseCrl, type Crl } from '@identity-broker/eu-wallet';

const PEM_CRL = /-----BEGIN X509 CRL-----[\s\S]+?-----END X509 CRL-----/g;

function readOne(path: string): Crl[] {
  const bytes = readFileSync(path);
  const text = bytes.toString('latin1');
  try {
    if (!text.includes('-----BEGIN X509 CRL-----')) return [parseCrl(bytes)];
    return [...text.matchAll(PEM_CRL)].map((m) => parseCrl(Buffer.from(m[0], 'latin1')));
  } catch {
    throw new Error(`WALLET_TRUST_CRLS: ${path} is not a CRL (PEM or DER)`);
  }
}

/** Every CRL of the paths (a folder: each of its files, in name order); the first file that is not one throws, named. */
export function readWalletCrls(paths: readonly string[]): Crl[] {
  return paths.flatMap((path) =>
    statSync(path).isDirectory()
      ? readWalletCrls(
          readdirSync(path)
            .sort()
            .map((name) => join(path, name)),
        )
      : readOne(path),
  );
}
