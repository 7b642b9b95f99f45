/**
 * The lint configuration refuses what it says it refuses: ESLint's complexity rule (20) and max-lines (300) on the
 * service's and the libraries' code, and Prettier's layout (.prettierrc), each shown on a planted file next to one
 * that passes, so a rule that stopped applying, or one that refused everything, fails here. The files are linted as
 * text under the paths they would have (nothing is written); the import rules have their own test (lint-rooms.spec.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The rule ids ESLint reports for `code`, linted as the file at `path` (relative to the repository). */
async function ruleIdsOf(code: string, path: string): Promise<(string | null)[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
  return result.messages.map((m) => m.ruleId);
}

/** A function whose cyclomatic complexity is 1 + `branches` (one `if` each). */
function functionWithBranches(branches: number): string {
  const ifs = Array.from({ length: branches }, (_, i) => `  if (n === ${i}) return ${i};\n`).join('');
  return `export function pick(n: number): number {\n${ifs}  return -1;\n}\n`;
}

/** A file of `lines` lines of code. */
function fileOfLines(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `export const value${i} = ${i};`).join('\n') + '\n';
}

describe('ESLint: complexity', () => {
  it('refuses a function of complexity 21 and accepts one of 20, in src/ and in libs/', async () => {
    for (const path of ['src/common/planted-complexity.ts', 'libs/face/src/planted-complexity.ts']) {
      expect(await ruleIdsOf(functionWithBranches(20), path)).toContain('complexity');
      expect(await ruleIdsOf(functionWithBranches(19), path)).toEqual([]);
    }
  });

  it('lets a function over the limit through with a disable comment, and flags the comment once it is not needed', async () => {
    const path = 'src/common/planted-complexity.ts';
    const excuse = '/* eslint-disable-next-line complexity -- a flat list of independent checks */\n';
    expect(await ruleIdsOf(excuse + functionWithBranches(20), path)).toEqual([]);
    // A function simplified below the limit: its stale exception is reported (a warning, which lint's --max-warnings 0 refuses).
    const [stale] = (await eslint.lintText(excuse + functionWithBranches(3), { filePath: join(ROOT, path) }))[0].messages;
    expect(stale?.message).toMatch(/Unused eslint-disable directive \(no problems were reported from 'complexity'\)/);
  });
});

describe('ESLint: max-lines', () => {
  it('refuses a file of 301 lines and accepts one of 300', async () => {
    const path = 'src/common/planted-long-file.ts';
    expect(await ruleIdsOf(fileOfLines(301), path)).toContain('max-lines');
    expect(await ruleIdsOf(fileOfLines(300), path)).toEqual([]);
  });
});

describe('Prettier', () => {
  const path = join(ROOT, 'src/common/planted-format.ts');
  const formatted = "import { join } from 'node:path';\n\nexport const where = (dir: string, name: string): string => join(dir, `${name}.json`);\n";

  it('uses the repository configuration: single quotes, trailing commas, 160 characters a line', async () => {
    const config = await prettier.resolveConfig(path, { editorconfig: false });
    expect(config).toMatchObject({ singleQuote: true, trailingComma: 'all', printWidth: 160 });
  });

  it('refuses badly formatted code and accepts the same code formatted', async () => {
    const config = { ...(await prettier.resolveConfig(path)), filepath: path };
    const messy = 'import {join} from "node:path"\n\nexport const where = (dir:string,name:string):string=>join(dir,`${name}.json`)\n';
    expect(await prettier.check(messy, config)).toBe(false);
    expect(await prettier.check(formatted, config)).toBe(true);
    expect(await prettier.format(messy, config)).toBe(formatted);
  });

  it('accepts a line of up to 160 characters and breaks a longer one', async () => {
    const config = { ...(await prettier.resolveConfig(path)), filepath: path };
    /** One line listing `count` names: 22 + 11 characters a name (154 for 12, 165 for 13). */
    const listOf = (count: number) => `export const names = [${Array.from({ length: count }, (_, i) => `'name${String(i).padStart(3, '0')}'`).join(', ')}];\n`;
    expect(listOf(12).length - 1).toBeLessThanOrEqual(160);
    expect(await prettier.check(listOf(12), config)).toBe(true);
    expect(listOf(13).length - 1).toBeGreaterThan(160);
    expect(await prettier.check(listOf(13), config)).toBe(false);
  });
});
