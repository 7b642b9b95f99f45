import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * docs/architecture.md is where a newcomer starts: it must name what the code has. Read from the code, so that a new
 * extension point, room or test folder fails here until the page names it: every extension point (`export const X =
 * extensionPoint…` in src/) as `@X(…)`, every folder of src/ and libs/ in the source layout, and every folder of test/.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAGE = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

const folders = (dir: string) =>
  readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/** The extension points the code declares (src/common/discovery/discovered.ts makes them). */
function extensionPoints(files: string[]): string[] {
  return files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/export const (\w+) = extensionPoint\b/g)].map((m) => m[1])).sort();
}

/** The marks a page leaves out. */
function unnamedMarks(points: string[], page: string): string[] {
  return points.filter((name) => !page.includes(`@${name}(`));
}

/** The source-layout block: the fenced block of the "Source layout" section. */
function sourceLayout(page: string): string {
  const section = page.split(/^## /m).find((part) => part.startsWith('Source layout'));
  return /```\n([\s\S]*?)```/.exec(section ?? '')?.[1] ?? '';
}

describe('docs/architecture.md names what the code has', () => {
  it('every extension point, as its mark', () => {
    const points = extensionPoints(sourceFiles(join(ROOT, 'src')));
    expect(points.length).toBeGreaterThanOrEqual(8);
    expect(unnamedMarks(points, PAGE)).toEqual([]);
  });

  it('every folder of src/ and libs/ in the source layout', () => {
    const layout = sourceLayout(PAGE);
    expect(layout).toContain('src/');
    const missing = [...folders('src').map((name) => `${name}/`), ...folders('libs').map((name) => `${name}/`)].filter((name) => !layout.includes(name));
    expect(missing).toEqual([]);
  });

  it('every folder of test/ in the source layout', () => {
    const testLine = sourceLayout(PAGE)
      .split('\n')
      .filter((line, i, lines) => line.startsWith('test/') || (i > 0 && lines.slice(0, i).some((l) => l.startsWith('test/')) && /^\s/.test(line)))
      .join(' ');
    expect(folders('test').filter((name) => !testLine.includes(`${name}/`))).toEqual([]);
  });

  it('finds the extension points of a folder, and one that a page leaves out', () => {
    const found = extensionPoints(sourceFiles(join(ROOT, 'src/broker/spi')));
    expect(found).toEqual(expect.arrayContaining(['EidScheme', 'ObservedScheme']));
    expect(unnamedMarks(found, PAGE.replaceAll('@ObservedScheme()', 'the observations mark'))).toEqual(['ObservedScheme']);
  });
});
