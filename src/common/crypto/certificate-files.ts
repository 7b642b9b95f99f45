import { X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The certificates (DER) of a PEM or DER file, or of every file in a folder, in name order. A file that holds no
 * certificate is a mistake in a trust list or chain (a key, a CRL, a stray note): it stops the start, named, with
 * `owner` saying whose file it is (e.g. "wallet trust list").
 */
export function readCertificates(path: string, owner: string): Uint8Array[] {
  if (statSync(path).isDirectory())
    return readdirSync(path)
      .sort()
      .flatMap((name) => readCertificates(join(path, name), owner));
  const bytes = readFileSync(path);
  const text = bytes.toString('latin1');
  try {
    if (!text.includes('-----BEGIN CERTIFICATE-----')) return [new Uint8Array(new X509Certificate(bytes).raw)];
    return [...text.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)].map((m) => new Uint8Array(new X509Certificate(m[0]).raw));
  } catch {
    throw new Error(`${owner}: ${path} is not a certificate (PEM or DER)`);
  }
}
