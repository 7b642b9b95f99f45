import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Which files outside a scheme's folder name the scheme, and on which lines (docs/architecture.md, "Adding a scheme").
 * A line names a scheme when, its comments set aside (prose may say what a scheme does), it
 * - imports a module inside the scheme's folder (a relative path that resolves there), or
 * - spells the folder's name in any case, as code does (`eu-wallet`, `EuWallet`, `euWallet`, `EU_WALLET`; "EU wallet" with a
 *   space is prose), outside an import of a library of `libs/` (the wallet's library is `libs/eu-wallet`, imported as `@identity-broker/eu-wallet`), or
 * - names one of the scheme's own environment variables (the `UPPER_SNAKE` string literals of its `config/` folder: the
 *   EU wallet's `WALLET_REQUEST_KEY_FILE` and the others its section reads), or
 * - uses an identifier the scheme's folder exports that no other file declares, when it is a compound name (an inner
 *   capital or an underscore: `WalletTrustService`, `WALLET_PATHS`; plain words such as `read` are everybody's).
 */
export const SCHEME_FOLDERS = ['eu-wallet', 'upstream-oidc', 'test-eid', 'document-verifier'] as const;

export interface Mention {
  file: string;
  line: number;
  text: string;
}

const SOURCE = /\.(?:ts|mts|mjs|js)$/;
/** Tests are not the service's code: specs beside the files they test, a library's test/ folder (as test/ is not read). */
const TEST = /\.(?:e2e-)?spec\.ts$/;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist' || (name === 'test' && dir.includes('/libs/'))) return [];
    return statSync(path).isDirectory() ? walk(path) : SOURCE.test(name) && !TEST.test(name) ? [path] : [];
  });
}

/** The sources the rule looks at: src/, libs/ and ormconfig.ts, less their tests. */
export function sourceFiles(root: string): string[] {
  return [...walk(join(root, 'src')), ...walk(join(root, 'libs')), join(root, 'ormconfig.ts')];
}

/** Comments blanked (kept line for line), string contents kept. */
function withoutComments(text: string): string {
  return text.replace(
    /\/\*[\s\S]*?\*\/|(^|[^:'"`\\])\/\/[^\n]*|('(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`)/g,
    (match, before: string | undefined, literal: string | undefined) => {
      if (literal !== undefined) return literal;
      if (before !== undefined) return before;
      return match.replace(/[^\n]/g, ' ');
    },
  );
}

const DECLARED =
  /^\s*export\s+(?:default\s+)?(?:abstract\s+|declare\s+|async\s+)*(?:class|function\*?|const|let|var|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;
const ANY_DECLARATION = /\b(?:class|function\*?|const|let|var|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g;
const COMPOUND = /^(?:[a-z$][\w$]*[A-Z][\w$]*|[A-Z][a-z0-9$]+[A-Z][\w$]*|[A-Z0-9$]*_[A-Z0-9_$]*)$/;

function spellings(folder: string): RegExp {
  const parts = folder.split('-');
  return new RegExp(`(?<![\\w$])${parts.join('[-_]?')}(?![a-z0-9])`, 'i');
}

/** Every line outside each scheme's folder that names it, by scheme folder name. */
export function schemeMentions(root: string): Record<string, Mention[]> {
  const files = sourceFiles(root).map((path) => ({ path, code: withoutComments(readFileSync(path, 'utf8')) }));
  const result: Record<string, Mention[]> = {};
  for (const scheme of SCHEME_FOLDERS) {
    const folder = join(root, 'src', 'schemes', scheme);
    const inside = (path: string) => path.startsWith(folder + '/');
    const declaredElsewhere = new Set(files.filter((f) => !inside(f.path)).flatMap((f) => [...f.code.matchAll(ANY_DECLARATION)].map((m) => m[1])));
    const names = new Set(
      files
        .filter((f) => inside(f.path))
        .flatMap((f) => [...f.code.matchAll(DECLARED)].map((m) => m[1]))
        .filter((name) => COMPOUND.test(name) && !declaredElsewhere.has(name)),
    );
    // Its own environment variables: the names its configuration section reads.
    for (const f of files.filter((file) => file.path.startsWith(join(folder, 'config') + '/')))
      for (const m of f.code.matchAll(/'([A-Z][A-Z0-9]*_[A-Z0-9_]+)'/g)) names.add(m[1]);
    const nameRule = names.size ? new RegExp(`(?<![\\w$])(?:${[...names].join('|')})(?![\\w$])`) : undefined;
    const folderName = spellings(scheme);
    const mentions: Mention[] = [];
    for (const { path, code } of files) {
      if (inside(path)) continue;
      code.split('\n').forEach((line, index) => {
        const imports = [...line.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)(['"])([^'"]+)\1/g)].map((m) => m[2]);
        const intoFolder = imports.some((spec) => spec.startsWith('.') && (resolve(dirname(path), spec) + '/').startsWith(folder + '/'));
        const bare = line.replace(/(['"])[^'"\n]*(?:libs\/|@identity-broker\/)[^'"\n]*\1/g, "''");
        if (intoFolder || folderName.test(bare) || nameRule?.test(bare)) mentions.push({ file: relative(root, path), line: index + 1, text: line.trim() });
      });
    }
    result[scheme] = mentions;
  }
  return result;
}

/** `npx tsx test/support/scheme-mentions.ts [root]`: the files (and lines) outside each scheme's folder that name it. */
if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const root = resolve(process.argv[2] ?? '.');
  for (const [scheme, mentions] of Object.entries(schemeMentions(root))) {
    const files = [...new Set(mentions.map((m) => m.file))];
    console.log(`${scheme}: ${files.length} files, ${mentions.length} lines`);
    for (const m of mentions) console.log(`  ${m.file}:${m.line}  ${m.text.slice(0, 140)}`);
  }
}
