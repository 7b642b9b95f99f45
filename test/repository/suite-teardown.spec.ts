import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const suites = (): string[] =>
  readdirSync('test/e2e', { withFileTypes: true }).flatMap((e) => (e.isFile() && e.name.endsWith('.ts') ? [join('test/e2e', e.name)] : []));

/** Each afterAll hook's text: its one-line form, or its block up to the closing line at the same indent. */
function afterAllHooks(source: string): { line: number; text: string }[] {
  const lines = source.split('\n');
  const hooks: { line: number; text: string }[] = [];
  lines.forEach((line, i) => {
    const open = /^(\s*)afterAll\(/.exec(line);
    if (!open) return;
    if (!/\{\s*$/.test(line)) return void hooks.push({ line: i + 1, text: line });
    const end = lines.findIndex((l, j) => j > i && l.startsWith(`${open[1]}}`));
    hooks.push({ line: i + 1, text: lines.slice(i, end + 1).join('\n') });
  });
  return hooks;
}

/**
 * When a suite's beforeAll fails (a start slower than its bound on a busy machine), its afterAll still runs: one that
 * closes what was never made would add a TypeError to the report and hide the one failure that matters.
 */
describe('the e2e suites tear down what they started, and only that', () => {
  it('close or stop the apps, servers and listeners of a beforeAll only when they exist (?.)', () => {
    const bare = suites().flatMap((file) =>
      afterAllHooks(readFileSync(file, 'utf8')).flatMap(({ line, text }) =>
        [...text.matchAll(/(?<![?.\w])\b([a-z]\w*)\.(close|stop)\(/g)]
          // Guarded by a test of its own (`server ? server.close(…) : …`, `if (server)`) is fine too.
          .filter((m) => !new RegExp(`\\b${m[1]} \\?|if \\(${m[1]}\\b|\\b${m[1]} &&`).test(text))
          .map((m) => `${file}:${line}: ${m[1]}.${m[2]}()`),
      ),
    );
    expect(bare).toEqual([]);
  });
});
