import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Every error class of the service goes through AppError (src/common/errors/app-error.ts), so the error renderer
 * knows what a client may read of it: a class that extends Error (or a library's error) directly is found here.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

/**
 * The one exception: a store outage must be the engine's own error class for oidc-provider to answer it as the
 * protocol says (a redirect to the merchant, the token endpoint's JSON); the broker's routes answer it as the
 * AppError it converts to (toAppError, asAppError in the renderer).
 */
const ENGINE_ERRORS = new Set(['TemporarilyUnavailableError']);

/**
 * And a start-up failure: configuration is read before the service listens (the process stops with the problems
 * listed), and config/ sits below common/ in the rooms, so its error cannot reach AppError without an arrow up.
 */
const START_ERRORS = new Set(['ConfigError']);

/** Roots of error hierarchies outside the service: the built-in errors, oidc-provider's, Nest's. */
const FOREIGN_ERROR = /^(Error|TypeError|RangeError|SyntaxError|errors\.\w+|HttpException|\w+Exception)$/;

/** The service's sources under `dir`, less the specs beside them (a test's stub server or error is not the service's). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Class name to its parent and file, for every `class X extends Y` in the sources. */
function classesIn(files: string[]): Map<string, { parent: string; file: string }> {
  const classes = new Map<string, { parent: string; file: string }>();
  for (const file of files)
    for (const match of readFileSync(file, 'utf8').matchAll(/\bclass\s+(\w+)(?:<[^>{]*>)?\s+extends\s+([\w.]+)/g))
      classes.set(match[1], { parent: match[2], file: relative(ROOT, file) });
  return classes;
}

/** The error classes whose chain reaches a foreign error root without passing AppError. */
function classesBypassingAppError(classes: Map<string, { parent: string; file: string }>): string[] {
  const bypassing: string[] = [];
  for (const [name, { file }] of classes) {
    if (name === 'AppError' || ENGINE_ERRORS.has(name) || START_ERRORS.has(name)) continue;
    let parent = classes.get(name)?.parent;
    const seen = new Set<string>();
    while (parent && parent !== 'AppError' && classes.has(parent) && !seen.has(parent)) {
      seen.add(parent);
      parent = classes.get(parent)!.parent;
    }
    if (parent && parent !== 'AppError' && FOREIGN_ERROR.test(parent)) bypassing.push(`${name} (${file}) extends ${parent}`);
  }
  return bypassing;
}

describe('error classes', () => {
  it('every error class in src goes through AppError', () => {
    expect(classesBypassingAppError(classesIn(sourceFiles(SRC)))).toEqual([]);
  });

  it('finds a class that extends Error, directly or through another class', () => {
    const classes = new Map([
      ['Direct', { parent: 'Error', file: 'a.ts' }],
      ['Good', { parent: 'AppError', file: 'b.ts' }],
      ['GoodChild', { parent: 'Good', file: 'b.ts' }],
      ['Bad', { parent: 'Direct', file: 'c.ts' }],
      ['Engine', { parent: 'errors.InvalidRequest', file: 'd.ts' }],
      ['Service', { parent: 'Object', file: 'e.ts' }],
    ]);
    expect(classesBypassingAppError(classes)).toEqual([
      'Direct (a.ts) extends Error',
      'Bad (c.ts) extends Error',
      'Engine (d.ts) extends errors.InvalidRequest',
    ]);
  });
});
