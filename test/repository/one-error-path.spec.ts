import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * One error path: only the error renderer (src/common/errors/) writes an error to a client. Everywhere else an error
 * is thrown, or passed on with next(err), and the renderer answers it (JSON, the error page or a SOAP fault). This
 * scan fails when a file outside the renderer's folder writes an error status or an error body itself.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');
const RENDERER = 'src/common/errors/';

/** What writes an error to a client: a 4xx/5xx (or a computed) status written, or one of the old error writers. */
const WRITES = [
  /\bres\.status\(\s*([45]\d\d|[A-Za-z_][\w.]*)\s*\)/,
  /\.sendStatus\(\s*[45]\d\d/,
  /\.writeHead\(\s*([45]\d\d|[A-Za-z_][\w.]*)\s*[,)]/,
  /\b(ctx|res)\.(status|statusCode)\s*=\s*([45]\d\d|[A-Za-z_][\w.]*)\s*;/,
  /\b(sendError|toErrorBody|errorPage|errorPageHtml)\(/,
  /\b(ctx|res|reply)\.body\s*=\s*\{\s*['"]?error['"]?\s*:/,
  /\.(json|send)\(\s*\{\s*['"]?error['"]?\s*:/,
];

/**
 * Status reports that are not errors: the readiness and database probes answer 503 with their report (what is
 * down), which is the probe's body, not an error object. Nothing else may be listed here.
 */
const REPORTS: Record<string, RegExp> = {
  'src/ops/health/health.controller.ts': /res\.status\(503\)/,
  'src/ops/metrics/metrics-server.ts': /res\.writeHead\(status, \{ 'content-type': 'application\/json; charset=utf-8', 'cache-control': 'no-store' \}\)/,
};

/** The service's sources under `dir`, less the specs beside them (a test's stub server or error is not the service's). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Each line without comments (a line comment, or a line of a block comment). */
function codeLines(text: string): string[] {
  return text.split('\n').map((line) => (/^\s*(\/\/|\/\*|\*)/.test(line) ? '' : line.replace(/\s\/\/ .*$/, '')));
}

/** Files outside the renderer that write an error, as `path:line: code`. */
function errorWritersIn(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const path = relative(ROOT, file).split('\\').join('/');
    if (path.startsWith(RENDERER)) continue;
    codeLines(readFileSync(file, 'utf8')).forEach((line, index) => {
      if (/^\s*(import|export \{)/.test(line) || /^\s*(export )?(async )?function \w+\(/.test(line)) return;
      if (REPORTS[path]?.test(line)) return;
      if (WRITES.some((write) => write.test(line))) found.push(`${path}:${index + 1}: ${line.trim()}`);
    });
  }
  return found;
}

describe('one error path', () => {
  it('no file outside src/common/errors writes an error to a client', () => {
    expect(errorWritersIn(sourceFiles(SRC))).toEqual([]);
  });

  it('the scan sees each kind of error write it looks for', () => {
    const samples = [
      "res.status(400).json({ error: 'invalid_request' });",
      "res.status(status).type('html').send(page);",
      "res.writeHead(503, {}).end('{}');",
      'ctx.status = 400;',
      'sendError(req, res, e);',
      'const { status, body } = toErrorBody(error);',
      "res.send(errorPage(site, locale, 'invalid_request', description));",
      "ctx.body = { error: 'invalid_dpop_proof', error_description: description };",
      "res.json({ error: 'invalid_request', error_description: 'x' });",
    ];
    for (const sample of samples) expect(WRITES.some((write) => write.test(sample))).toBe(true);
    for (const fine of ["res.status(200).type('html').send(page);", 'res.redirect(303, url);', 'ctx.status = 200;', 'next(new BadRequestError(refusal));'])
      expect(WRITES.some((write) => write.test(fine))).toBe(false);
  });
});
