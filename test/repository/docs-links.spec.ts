/**
 * Every relative link in the README, docs/ and the libraries' READMEs must lead somewhere: the file exists and a
 * `#anchor` into a Markdown file names one of its headings, slugged as GitHub does (lowercase, spaces to '-',
 * punctuation other than '-' and '_' removed, a repeated heading gets -1, -2, …). Links inside code (fenced blocks
 * and inline spans) are text, not links, and headings inside fenced blocks are no anchors.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** GitHub's heading slug: the heading's text, lowercased, punctuation but '-' and '_' removed, spaces to '-'. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // images keep their alt text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links keep their text
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Markdown lines outside fenced code blocks, with inline code spans blanked out. */
function proseLines(markdown: string): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence ? undefined : marker;
      continue;
    }
    if (!fence) out.push(line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length)));
  }
  return out;
}

/** The anchors a Markdown file's headings give, repeated ones numbered as GitHub numbers them. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence ? undefined : marker;
      continue;
    }
    const heading = fence ? undefined : /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The link targets of a Markdown file: inline links and images, and reference definitions. */
function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(markdown)) {
    for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]);
    const reference = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
    if (reference) targets.push(reference[1]);
  }
  return targets;
}

interface BrokenLink {
  file: string;
  target: string;
  reason: string;
}

/** Broken relative links of one Markdown file (absolute URLs are not followed). */
function brokenLinks(file: string, root: string): BrokenLink[] {
  const markdown = readFileSync(file, 'utf8');
  const broken: BrokenLink[] = [];
  for (const target of linkTargets(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    const path = decodeURIComponent(pathPart.split('?')[0]);
    const resolved = path === '' ? file : join(dirname(file), path);
    const report = (reason: string) => broken.push({ file: relative(root, file), target, reason });
    if (!existsSync(resolved)) {
      report('no such file');
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) continue; // GitHub's #L10 anchors into code
    if (!headingAnchors(readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor))) report(`no heading for #${anchor}`);
  }
  return broken;
}

/**
 * Repository paths the prose names in code spans (`src/broker/spi/eid-provider.ts`, `test/e2e/…`) that do not exist:
 * a file moves, its mentions stay behind. A span counts when it is one word starting at a top folder of the
 * repository; a line number or anchor after it is dropped, and a pattern (`*`, `{`, `<`, `…`) is no path. The
 * libraries' READMEs are left out: they name their own files relative to their folder, and other projects' sources.
 */
function missingRepositoryPaths(file: string, root: string): BrokenLink[] {
  const missing: BrokenLink[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    for (const [, span] of line.matchAll(/`((?:src|libs|test|scripts|docs)\/[^`\s]*)`/g)) {
      const path = span.replace(/[#:].*$/, '');
      if (/[*{}<>…]/.test(path)) continue;
      if (!existsSync(join(root, path))) missing.push({ file: relative(root, file), target: span, reason: 'no such path' });
    }
  }
  return missing;
}

function markdownFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdownFiles(join(folder, entry.name)) : entry.name.endsWith('.md') ? [join(folder, entry.name)] : [],
  );
}

/** The README, every page under docs/ and each library's README. */
function documentationFiles(root: string): string[] {
  const libs = existsSync(join(root, 'libs')) ? readdirSync(join(root, 'libs')).map((lib) => join(root, 'libs', lib, 'README.md')) : [];
  return [join(root, 'README.md'), ...markdownFiles(join(root, 'docs')), ...libs.filter((file) => existsSync(file))];
}

describe('documentation links', () => {
  it('every relative link in README.md, docs/ and libs/*/README.md resolves', () => {
    const files = documentationFiles(ROOT);
    expect(files.map((file) => relative(ROOT, file))).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'libs/face/README.md']));
    expect(files.flatMap((file) => brokenLinks(file, ROOT))).toEqual([]);
  });

  it('every repository path named in code spans of README.md and docs/ exists', () => {
    const files = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];
    expect(files.flatMap((file) => missingRepositoryPaths(file, ROOT))).toEqual([]);
  });

  it('slugs headings as GitHub does', () => {
    expect(githubSlug('Performance (`npm run bench:icao`, 2 shared cores)')).toBe('performance-npm-run-benchicao-2-shared-cores');
    expect(githubSlug("SP-initiated sign-on (Shibboleth's AuthnRequest profile)")).toBe('sp-initiated-sign-on-shibboleths-authnrequest-profile');
    expect(githubSlug('Browser/Artifact')).toBe('browserartifact');
    expect(githubSlug('auth_time')).toBe('auth_time');
    expect(githubSlug('Signing keys (spec 5.5)')).toBe('signing-keys-spec-55');
    expect(githubSlug('Level 7 and above: what an operator needs')).toBe('level-7-and-above-what-an-operator-needs');
    expect(githubSlug('A [linked](other.md) heading')).toBe('a-linked-heading');
    expect(githubSlug('Über Größe')).toBe('über-größe');
  });

  describe('on a folder of its own', () => {
    let root: string;
    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'docs-links-'));
      mkdirSync(join(root, 'docs'));
      writeFileSync(
        join(root, 'docs', 'page.md'),
        ['# Page', '', '## Rate limits', '', '## Notes', '', '## Notes', '', '```bash', '# not a heading', '```', ''].join('\n'),
      );
      writeFileSync(join(root, 'docs', 'image.png'), '');
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    const check = (markdown: string) => {
      writeFileSync(join(root, 'README.md'), markdown);
      return brokenLinks(join(root, 'README.md'), root).map(({ target, reason }) => `${target}: ${reason}`);
    };

    it('accepts links to files, headings, repeated headings, images and absolute URLs', () => {
      expect(
        check(
          [
            '# Top',
            '[page](docs/page.md), [limits](docs/page.md#rate-limits), [second notes](docs/page.md#notes-1),',
            '![image](docs/image.png), [self](#top), [folder](docs), [web](https://example.com/missing.md#x),',
            '[ref]: docs/page.md#notes',
          ].join('\n'),
        ),
      ).toEqual([]);
    });

    it('reports a missing file, a missing image and a missing heading, here and in another file', () => {
      expect(
        check('# Top\n[gone](docs/gone.md) ![gone](docs/gone.png) [wrong](docs/page.md#rate-limit) [code](docs/page.md#not-a-heading) [self](#bottom)\n'),
      ).toEqual([
        'docs/gone.md: no such file',
        'docs/gone.png: no such file',
        'docs/page.md#rate-limit: no heading for #rate-limit',
        'docs/page.md#not-a-heading: no heading for #not-a-heading',
        '#bottom: no heading for #bottom',
      ]);
    });

    it('reports a repository path in a code span that does not exist, and no pattern or command', () => {
      mkdirSync(join(root, 'src', 'broker'), { recursive: true });
      writeFileSync(join(root, 'src', 'broker', 'here.ts'), '');
      writeFileSync(
        join(root, 'README.md'),
        '`src/broker/here.ts` `src/broker/here.ts:12` `src/broker` `src/broker/gone.ts` `docs/gone.md#x` `src/*/x.ts` `npx tsx scripts/x.ts`\n',
      );
      expect(missingRepositoryPaths(join(root, 'README.md'), root).map(({ target }) => target)).toEqual(['src/broker/gone.ts', 'docs/gone.md#x']);
    });

    it('reports a third repeated heading that does not exist', () => {
      expect(check('[third](docs/page.md#notes-2)\n')).toEqual(['docs/page.md#notes-2: no heading for #notes-2']);
    });

    it('ignores links inside code', () => {
      expect(check('`[not a link](docs/gone.md)`\n\n```md\n[not a link](docs/gone.md)\n```\n')).toEqual([]);
    });

    it('finds the pages of docs/ and the libraries', () => {
      mkdirSync(join(root, 'libs', 'one'), { recursive: true });
      mkdirSync(join(root, 'libs', 'two'), { recursive: true });
      writeFileSync(join(root, 'libs', 'one', 'README.md'), '# one\n');
      writeFileSync(join(root, 'README.md'), '# root\n');
      expect(
        documentationFiles(root)
          .map((file) => relative(root, file))
          .sort(),
      ).toEqual(['README.md', 'docs/page.md', 'libs/one/README.md']);
    });
  });
});
