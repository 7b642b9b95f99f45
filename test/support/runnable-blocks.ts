import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The fence that marks a shell block a reader can paste as it is against `npm start` (docs/development.md). */
const RUNNABLE_FENCE = '```bash runnable';

interface RunnableBlock {
  /** Where it is, as `docs/auth-files.md:42` (the fence's line). */
  where: string;
  script: string;
}

/** The Markdown a new user reads: the README, docs/ and the libraries' READMEs. */
function markdownFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'));
  const libs = readdirSync(join(root, 'libs')).map((lib) => `libs/${lib}/README.md`);
  return ['README.md', ...docs.map((f) => `docs/${f}`), ...libs].filter((f) => existsSync(join(root, f)));
}

/** Every fenced block marked runnable, in file order. */
export function runnableBlocks(root: string): RunnableBlock[] {
  const blocks: RunnableBlock[] = [];
  for (const file of markdownFiles(root)) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (lines[i].trim() !== RUNNABLE_FENCE) continue;
      const end = lines.findIndex((line, j) => j > i && line.trim() === '```');
      if (end < 0) throw new Error(`${file}:${i + 1}: a runnable block without its closing fence`);
      blocks.push({ where: `${file}:${i + 1}`, script: lines.slice(i + 1, end).join('\n') });
      i = end;
    }
  }
  return blocks;
}
