/**
 * The CRLs of CLIENT_CERT_CRL_FILE (RFC 5280 §5): one or more for each CA of CLIENT_CERT_CA_FILE, against which the
 * certificates of tls_client_auth merchants (RFC 8705 §2.1) are judged. Parsed and signature-checked with the wallet
 * trust's own CRL reader (@identity-broker/eu-wallet: parseCrl, crlSignerProblem, RFC 5280 §6.3.3), not a second one.
 * Read at start (the config check, then the signatures before the engine serves) and at each change of the file.
 */
import type { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { crlSignerProblem, parseCrl, peculiar, type Crl } from '@identity-broker/eu-wallet';
import { ConfigError } from './app-config.js';

const PEM_CRL = /-----BEGIN X509 CRL-----[\s\S]+?-----END X509 CRL-----/g;
const refused = (problem: string) => new ConfigError([`CLIENT_CERT_CRL_FILE: ${problem}`]);

/** A CA of CLIENT_CERT_CA_FILE and the CRLs it signed. */
export interface CaRevocationLists {
  ca: X509Certificate;
  /** The CA as the CRL reader takes it (judge's issuer). */
  issuer: ReturnType<typeof peculiar>;
  crls: Crl[];
}

/** The CRLs of the file: PEM `X509 CRL` blocks, or one DER CRL. A file that cannot be read or holds none is refused, named. */
export function readCrlFile(file: string): Crl[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    throw refused(`no readable file at ${file}`);
  }
  const text = bytes.toString('latin1');
  if (!text.includes('-----BEGIN X509 CRL-----')) {
    try {
      return [parseCrl(bytes)];
    } catch {
      throw refused(`${file} holds no CRL (PEM "X509 CRL" blocks or one DER CRL)`);
    }
  }
  const blocks = [...text.matchAll(PEM_CRL)].map((m) => Buffer.from(m[0], 'latin1'));
  if (!blocks.length) throw refused(`${file} holds no complete PEM "X509 CRL" block`);
  return blocks.map((block, i) => {
    try {
      return parseCrl(block);
    } catch {
      throw refused(`${file}: CRL ${i + 1} of ${blocks.length} is not a readable CRL`);
    }
  });
}

/**
 * Each CRL to the CA that signed it, and every CA with one: a CRL that no CA of CLIENT_CERT_CA_FILE signed, one that
 * cannot decide any certificate (a delta or indirect CRL, an unknown critical extension), or a CA without a CRL (its
 * certificates would go unchecked) is refused, each named. A CRL already past its nextUpdate is taken (the cron that
 * fetches the next one may be late); its certificates are refused until then (client-certificate-revocation.ts).
 */
export async function assignCrlsToCas(file: string, crls: Crl[], cas: X509Certificate[]): Promise<CaRevocationLists[]> {
  const entries: CaRevocationLists[] = cas.map((ca) => ({ ca, issuer: peculiar(ca), crls: [] }));
  const problems: string[] = [];
  for (const [i, crl] of crls.entries()) {
    const name = `the CRL of "${crl.issuer}"${crls.length > 1 ? ` (CRL ${i + 1} of ${crls.length})` : ''}`;
    if (crl.unusable) {
      problems.push(`${file}: ${name} cannot be used: ${crl.unusable}`);
      continue;
    }
    const signers: CaRevocationLists[] = [];
    for (const entry of entries) if (entry.issuer.subject === crl.issuer && !(await crlSignerProblem(crl, entry.issuer))) signers.push(entry);
    if (!signers.length) problems.push(`${file}: ${name} is not signed by any CA of CLIENT_CERT_CA_FILE`);
    for (const signer of signers) signer.crls.push(crl);
  }
  for (const entry of entries)
    if (!entry.crls.length) problems.push(`${file} has no CRL of the CA "${entry.issuer.subject}" (every CA of CLIENT_CERT_CA_FILE needs one)`);
  if (problems.length) throw new ConfigError(problems.map((p) => `CLIENT_CERT_CRL_FILE: ${p}`));
  return entries;
}
