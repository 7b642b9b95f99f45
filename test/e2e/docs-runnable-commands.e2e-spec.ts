import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runnableBlocks } from '../support/runnable-blocks.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { SHELDON, verifierLogin, verifierMerchant } from '../support/verifier-flow.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BLOCKS = runnableBlocks(ROOT);

/** A folder that looks like a fresh clone (every top-level entry linked, no data/): what the commands write lands here. */
function scratchClone(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docs-commands-'));
  for (const entry of readdirSync(ROOT)) if (!['.git', 'data', 'dist'].includes(entry)) symlinkSync(join(ROOT, entry), join(dir, entry));
  return dir;
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd, env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => done({ code, output }));
  });
}

/**
 * Every shell block of the README and docs/ marked runnable (```bash runnable, docs/development.md) runs as pasted
 * against a started service: with the service's base URL for http://localhost:3000 and its admin token for `adm_…`,
 * and CLIENT_ID, CLIENT_SECRET and AUTH_FILES_URL of a document verifier sign-in the test ran, as a reader has them.
 */
describe('the runnable commands of the README and docs/', () => {
  let t: TestApp;
  let cwd: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp();
    const { merchant, documentDir } = await verifierMerchant(t, 'Docs shop');
    const shop = merchant.clientMetadata();
    const { claims } = await verifierLogin(t.baseUrl, merchant, { documentDir, person: SHELDON });
    cwd = scratchClone();
    env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? cwd,
      // tsx applies a tsconfig to the files it includes; reached through the links, the sources are outside the scratch
      // folder's (linked) tsconfig, so name the repository's: its decorators are the legacy ones the sources need.
      TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.json'),
      CLIENT_ID: shop.client_id,
      CLIENT_SECRET: String(shop.client_secret),
      AUTH_FILES_URL: String(claims.auth_files_url),
    };
  }, 120_000);
  afterAll(async () => {
    if (cwd) rmSync(cwd, { recursive: true, force: true });
    await t?.close();
  });

  it('finds the marked blocks: the quickstart, the test app, the credential offer recipe, the auth-files requests', () => {
    expect(BLOCKS.map((b) => b.where.split(':')[0])).toEqual(
      expect.arrayContaining(['README.md', 'docs/document-verifier.md', 'docs/credential-issuer.md', 'docs/auth-files.md']),
    );
  });

  it.each(BLOCKS.map((b) => [b.where, b.script]))(
    '%s runs as pasted (exit 0)',
    async (where, script) => {
      const pasted = script.replaceAll('http://localhost:3000', t.baseUrl).replaceAll('adm_…', t.adminToken);
      const { code, output } = await bash(pasted, cwd, env);
      expect([where, code, code === 0 ? '' : output]).toEqual([where, 0, '']);
    },
    60_000,
  );
});
