import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { SCHEME_FOLDERS, schemeMentions, type Mention } from '../support/scheme-mentions.js';

const ROOT = resolve(import.meta.dirname, '../..');
/** The one file outside the schemes' folders that names them: one line each (docs/architecture.md, "Adding a scheme"). */
const LISTING = 'src/schemes/index.ts';

/**
 * Mentions that are not the listing line and stay, each with its reason. Kept on purpose: a value stored in every
 * document-verified person's subject. Pending: files of other parts of this round, or work left (each must still name
 * the scheme, so that the list shrinks as the work lands and no entry outlives its cause).
 */
const KEPT: Record<string, { schemes: string[]; why: string }> = {
  'src/broker/spi/subjects/document-subject.ts': {
    schemes: ['document-verifier'],
    why: "the subject namespace of document-verified identities: its value is in every such person's `sub`, the wallet's reusable credential's too",
  },
  'src/merchants/dto/merchant-fields.ts': {
    schemes: ['document-verifier'],
    why: "the merchant API's example of an eid_schemes value: the id merchants send is the scheme's public name",
  },
};
const PENDING: Record<string, { schemes: string[]; why: string }> = {
  'src/config/app-config.ts': { schemes: ['document-verifier'], why: "the verifier's variables (FACE_ENGINE …): its configuration section is not yet its own" },
  'src/config/load-config.ts': {
    schemes: ['document-verifier'],
    why: "the verifier's variables (FACE_ENGINE …): its configuration section is not yet its own",
  },
  'src/config/document-verifier-variables.ts': {
    schemes: ['document-verifier'],
    why: "the verifier's variables (FACE_ENGINE …): its configuration section is not yet its own",
  },
};

const at = (m: Mention) => `${m.file}:${m.line}  ${m.text}`;

describe('a scheme stays in its folder', () => {
  const mentions = schemeMentions(ROOT);

  it.each(SCHEME_FOLDERS)('outside src/schemes/%s only the listing line names it (and what is kept or pending, below)', (scheme) => {
    const listed = mentions[scheme].filter((m) => m.file === LISTING);
    expect(listed).toHaveLength(1);
    expect(listed[0].text).toMatch(new RegExp(`from '\\./${scheme}/${scheme}\\.manifest\\.js';$`));
    const elsewhere = mentions[scheme].filter(
      (m) => m.file !== LISTING && !KEPT[m.file]?.schemes.includes(scheme) && !PENDING[m.file]?.schemes.includes(scheme),
    );
    expect(elsewhere.map(at)).toEqual([]);
  });

  it('keeps no entry that no longer names its scheme', () => {
    const stale = Object.entries({ ...KEPT, ...PENDING }).flatMap(([file, { schemes }]) =>
      schemes.filter((scheme) => !mentions[scheme].some((m) => m.file === file)).map((scheme) => `${file} (${scheme})`),
    );
    expect(stale).toEqual([]);
  });

  it('the listing file holds one line per scheme and nothing else that names one', () => {
    const code = readFileSync(join(ROOT, LISTING), 'utf8')
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('//'));
    expect(code).toHaveLength(SCHEME_FOLDERS.length);
  });

  it('counts imports into the folder, its name as code spells it and its own exports, but not prose', () => {
    const root = mkdtempSync(join(tmpdir(), 'scheme-mentions-'));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    try {
      write('ormconfig.ts', '');
      write('libs/x/src/index.ts', "// the EU wallet's library\nexport const LIB = 1;\n");
      write('src/schemes/eu-wallet/wallet-paths.ts', "export const WALLET_PATHS = { responses: '/wallet/v1/responses' };\nexport const read = 1;\n");
      write('src/ops/a.ts', "import { WALLET_PATHS } from '../schemes/eu-wallet/wallet-paths.js';\n");
      write('src/ops/b.ts', 'const paths = WALLET_PATHS;\nconst read = 2; // the EU wallet answers here (eu-wallet)\n');
      write('src/ops/c.ts', "const id = 'eu-wallet';\n");
      write('src/ops/d.ts', "import { parse } from '../../libs/eu-wallet/src/index.js';\nconst text = 'the EU wallet';\n");
      const found = schemeMentions(root)['eu-wallet'].map((m) => `${m.file}:${m.line}`);
      expect(found).toEqual(['src/ops/a.ts:1', 'src/ops/b.ts:1', 'src/ops/c.ts:1']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
