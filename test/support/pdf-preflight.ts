import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describeWhen } from './when-available.js';

/**
 * Apache PDFBox Preflight, the PDF/A-1b validator, as Debian ships it (libpdfbox2-java; on Java 17 it needs
 * javax.activation and JAXB from libactivation-java and libjaxb-api-java; a JRE from default-jre-headless), all
 * installed by .ci/run. The jars name no class path of their own, so it is spelled out here.
 */
const JARS = ['preflight', 'pdfbox2', 'fontbox2', 'xmpbox', 'commons-logging', 'javax.activation', 'jaxb-api'].map((jar) => `/usr/share/java/${jar}.jar`);
const VALIDATOR = 'org.apache.pdfbox.preflight.Validator_A1b';
const PACKAGES = 'default-jre-headless libpdfbox2-java libactivation-java libjaxb-api-java';

export interface PreflightVerdict {
  valid: boolean;
  /** "code: details", with " (page n)" when Preflight names a page (1-based). */
  errors: string[];
}

function preflightMissing(): string[] {
  const missing = JARS.filter((jar) => !existsSync(jar));
  if (spawnSync('sh', ['-c', 'command -v java']).status !== 0) missing.unshift('java');
  return missing;
}

/**
 * `describe` when Preflight is there; otherwise skipped, or under CI=true one failing test (CI must run them).
 */
export function describeWithPreflight(name: string, fn: () => void): void {
  const missing = preflightMissing();
  describeWhen(
    { available: missing.length === 0, missing: `PDFBox Preflight not installed (${missing.join(', ')})`, install: `apt-get install ${PACKAGES}` },
    name,
    fn,
  );
}

/**
 * Preflight's PDF/A-1b verdict on each file, by name. All files go through one JVM (its "xml group" mode, one
 * report for a list of files): the JVM's start costs about as much as validating a report.
 */
export async function preflightA1b(pdfs: Record<string, Buffer>): Promise<Record<string, PreflightVerdict>> {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-'));
  try {
    const files = Object.entries(pdfs).map(([name, pdf]) => {
      const file = join(dir, `${name}.pdf`);
      writeFileSync(file, pdf);
      return file;
    });
    const list = join(dir, 'files.txt');
    writeFileSync(list, files.join('\n') + '\n');
    await promisify(execFile)('java', ['-cp', JARS.join(':'), VALIDATOR, 'xml', 'group', list], { timeout: 60_000 });
    return parseGroupReport(readFileSync(`${list}.preflight.xml`, 'utf8'), Object.keys(pdfs));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** <preflights><preflight name="x.pdf"><isValid>…</isValid><errors><error><code/><details/><page/>?</error>…</errors>?</preflight>… */
function parseGroupReport(xml: string, names: string[]): Record<string, PreflightVerdict> {
  const verdicts: Record<string, PreflightVerdict> = {};
  for (const [, file, body] of xml.matchAll(/<preflight name="([^"]+)">([\s\S]*?)<\/preflight>/g)) {
    const errors = [...body.matchAll(/<error[^>]*>([\s\S]*?)<\/error>/g)].map(([, e]) => {
      const field = (tag: string) => new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(e)?.[1];
      const page = field('page');
      return `${field('code')}: ${field('details')}${page === undefined ? '' : ` (page ${Number(page) + 1})`}`;
    });
    verdicts[file.replace(/\.pdf$/, '')] = { valid: /<isValid[^>]*>true<\/isValid>/.test(body), errors };
  }
  const missing = names.filter((name) => !verdicts[name]);
  if (missing.length) throw new Error(`Preflight gave no verdict on ${missing.join(', ')}:\n${xml}`);
  return verdicts;
}
