import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { DocumentCertificate, TrustStore, type MasterListReport } from '@identity-broker/icao9303';
import { logger } from '../../../common/logging/logger.js';
import type { VerifierConfig } from '../config/verifier-config.js';

type TrustConfig = VerifierConfig['trust'];
type TrustVariable = 'TRUST_CSCA_PATHS' | 'TRUST_MASTERLIST_ANCHORS' | 'TRUST_MASTERLISTS' | 'TRUST_CRLS';

/** Every configured trust file or folder with the variable that names it, in the order the store reads them. */
function trustPaths(trust: TrustConfig): { variable: TrustVariable; path: string }[] {
  const named = (variable: TrustVariable, paths: string[]) => paths.map((path) => ({ variable, path }));
  return [
    ...named('TRUST_CSCA_PATHS', trust.cscaPaths),
    ...named('TRUST_MASTERLIST_ANCHORS', trust.masterListAnchors),
    ...named('TRUST_MASTERLISTS', trust.masterLists),
    ...named('TRUST_CRLS', trust.crls),
  ];
}

/** Why `path` cannot be read (missing, or no read permission), or undefined when it can. */
function unreadable(path: string): string | undefined {
  try {
    statSync(path);
    accessSync(path, constants.R_OK);
    return undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'no file or folder there' : `cannot be read (${code ?? (e as Error).message})`;
  }
}

/** "VARIABLE: path: why" for each configured trust file that is missing or unreadable; nothing is parsed. */
export function unreadableTrustFiles(trust: TrustConfig): string[] {
  return trustPaths(trust).flatMap(({ variable, path }) => {
    const why = unreadable(path);
    return why ? [`${variable}: ${path}: ${why}`] : [];
  });
}

/**
 * Builds the store from the configured files, reading each once and checking it is what its variable says: CSCA
 * certificates (DER or PEM; a folder must hold at least one), master list anchors, CMS master lists signed under those
 * anchors (9303-12 §8), CRLs signed by a trusted CSCA (9303-12 §7.1.4). Every file that fails is named in `problems`
 * as "VARIABLE: file: why", all of them at once, so one start tells an operator everything to fix.
 */
export function loadTrustFiles(trust: TrustConfig): { store: TrustStore; problems: string[] } {
  const store = new TrustStore();
  const problems: string[] = [];
  const read = (variable: TrustVariable, path: string, what: string, use: (bytes: Uint8Array) => void) => {
    const why = unreadable(path);
    if (why) return void problems.push(`${variable}: ${path}: ${why}`);
    try {
      use(new Uint8Array(readFileSync(path)));
    } catch (e) {
      // Whatever the parser threw, the file is not what its variable says: name it, with the parser's words.
      problems.push(`${variable}: ${path}: not ${what} (${e instanceof Error ? e.message : String(e)})`);
    }
  };
  for (const path of trust.cscaPaths) {
    const why = unreadable(path);
    if (why) {
      problems.push(`TRUST_CSCA_PATHS: ${path}: ${why}`);
      continue;
    }
    const files = TrustStore.certificateFiles(path);
    if (files.length === 0) problems.push(`TRUST_CSCA_PATHS: ${path}: no .cer, .crt, .der or .pem file in the folder`);
    for (const file of files) read('TRUST_CSCA_PATHS', file, 'a CSCA certificate (DER or PEM)', (bytes) => store.addCsca(bytes));
  }
  const anchors: DocumentCertificate[] = [];
  for (const path of trust.masterListAnchors)
    read('TRUST_MASTERLIST_ANCHORS', path, 'a certificate (DER or PEM)', (bytes) => anchors.push(...DocumentCertificate.parseAll(bytes, 'master list anchor')));
  for (const path of trust.masterLists)
    read('TRUST_MASTERLISTS', path, 'a CSCA master list signed under TRUST_MASTERLIST_ANCHORS', (bytes) => {
      const report = store.addMasterList(bytes, anchors);
      logger.info({ masterList: path, report: summarise(report) }, 'master list loaded');
    });
  for (const path of trust.crls) read('TRUST_CRLS', path, 'a CRL signed by a trusted CSCA', (bytes) => store.addCrl(bytes));
  return { store, problems };
}

/** A master list's report with its lists counted (hundreds of certificates are not for the log). */
function summarise(report: MasterListReport): Record<string, unknown> {
  return Object.fromEntries(Object.entries(report).map(([k, v]) => [k, Array.isArray(v) ? v.length : v]));
}
