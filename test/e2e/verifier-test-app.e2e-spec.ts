import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { runScript } from '../support/run-script.js';
import { provisioningCodeOf } from '../support/ciba-flow.js';
import { authorizationRequest, discover } from '../support/oidc-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { FACES, REDIRECT_URI } from '../support/verifier-flow.js';

const run = (args: string[]) => runScript('scripts/test-app/main.ts', args);

/** The example command lines of `--help` (after `npm run test-app --`), split as a shell would split them. */
function helpExamples(help: string): string[][] {
  return help
    .split('\n')
    .filter((line) => line.trim().startsWith('npm run test-app -- '))
    .map((line) =>
      [
        ...line
          .trim()
          .slice('npm run test-app -- '.length)
          .matchAll(/'([^']*)'|(\S+)/g),
      ].map((m) => m[1] ?? m[2]),
    );
}

/** The merchant-facing test app (npm run test-app) plays the phone against a real customer-test service. */
describe('the test app command line', () => {
  let t: TestApp;
  let config: client.Configuration;

  beforeAll(async () => {
    t = await startTestApp();
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'CLI', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
  });
  afterAll(() => t?.close(), 180_000);

  it('--help names each command with an example that runs as pasted (the address, the folder and the link filled in)', async () => {
    const help = await run(['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect((await run([])).stdout).toBe(help.stdout);
    const examples = helpExamples(help.stdout);
    expect(examples.map((args) => (args[0].startsWith('--') ? 'verify' : args[0]))).toEqual(['specimen', 'verify', 'ciba']);
    const dir = mkdtempSync(join(tmpdir(), 'cli-help-doc-'));
    const filled = (args: string[], values: Record<string, string>) =>
      args.map((a) => Object.entries(values).reduce((v, [from, to]) => v.replace(from, to), a));
    // The face images the examples name ship with the project.
    for (const path of examples.flat().filter((a) => a.startsWith('test/fixtures/'))) expect(existsSync(path)).toBe(true);

    const specimen = await run(filled(examples[0], { 'http://localhost:3000': t.baseUrl, './specimen-doc': dir }));
    expect(specimen).toMatchObject({ code: 0, stderr: '' });
    const browser = new TestBrowser(t.baseUrl);
    const page = await browser.follow(await browser.get((await authorizationRequest(config)).url.toString()));
    const link = /<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(page.html)![1].replace(/&amp;/g, '&');
    const verify = await run(filled(examples[1], { '<link under the QR code>': link, './specimen-doc': dir }));
    expect(JSON.parse(verify.stdout)).toMatchObject({ state: 'completed', authentication_result: 'pass' });

    const binding_message = JSON.stringify({ requestType: 'Provisioning', appId: 'my-phone', bindingMessage: 'Link my phone' });
    const started = await client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'my-phone', binding_message });
    const ciba = await run(filled(examples[2], { 'http://localhost:3000': t.baseUrl, '<code>': provisioningCodeOf(started) }));
    expect(ciba).toMatchObject({ code: 0, stderr: '' });
    expect(ciba.stdout).toContain('"state":"denied"');
  }, 240_000);

  it('a mistyped option or command gets one line and exit 2, no stack trace', async () => {
    const option = await run(['--bogus']);
    expect(option).toEqual({ code: 2, stdout: '', stderr: "test-app: Unknown option '--bogus' (npm run test-app -- --help)\n" });
    const command = await run(['frobnicate']);
    expect(command).toEqual({
      code: 2,
      stdout: '',
      stderr: 'test-app: unknown command "frobnicate": specimen, verify, ciba or help (npm run test-app -- --help)\n',
    });
    expect(await run(['specimen', '--person', 'nobody', '--api', 'x', '--face', 'y', '--out', 'z'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--person is one of uto-passport,'),
    });
  }, 60_000);

  it('ciba mode plays the phone of a backchannel request: shows it and declines it', async () => {
    const binding_message = JSON.stringify({ requestType: 'Provisioning', appId: 'cli-phone', bindingMessage: 'Link the CLI' });
    const started = await client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'cli-phone', binding_message });
    // The user types in the code the merchant got in its answer and showed them.
    const phone = await run(['ciba', '--api', `${t.baseUrl}/app/v1`, '--app-id', 'cli-phone', '--provisioning-code', provisioningCodeOf(started), '--decline']);
    expect(phone.stderr).toBe('');
    expect(phone.stdout).toContain('"binding_message": "Link the CLI"');
    expect(phone.stdout).toContain('"state":"denied"');
    await expect(client.pollBackchannelAuthenticationGrant(config, started)).rejects.toMatchObject({ error: 'access_denied' });
  }, 60_000);

  it('fetches a specimen document, then completes a session from its QR link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-doc-'));
    const specimen = await run([
      'specimen',
      '--api',
      `${t.baseUrl}/app/v1`,
      '--face',
      join(FACES, 'sheldon-document.jpg'),
      '--person',
      'd-idcard',
      '--out',
      dir,
    ]);
    expect(specimen.stderr).toBe('');
    expect(specimen.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(expect.arrayContaining(['aa-key.der', 'dg1.bin', 'dg2.bin', 'sod.bin']));

    const browser = new TestBrowser(t.baseUrl);
    const page = await browser.follow(await browser.get((await authorizationRequest(config)).url.toString()));
    const link = /<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(page.html)![1].replace(/&amp;/g, '&');
    const verify = await run([
      '--session',
      link,
      '--document',
      dir,
      '--selfie',
      join(FACES, 'sheldon-center.png'),
      '--left',
      join(FACES, 'sheldon-left.png'),
      '--right',
      join(FACES, 'sheldon-right.png'),
    ]);
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({ state: 'completed', authentication_result: 'pass' });

    const bad = await run(['--session', 'not-a-link', '--document', dir, '--selfie', join(FACES, 'sheldon-center.png')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not a session link');
  }, 240_000);

  it('runs the Chip Authentication challenge for a specimen chip with a DG14 CA key and no DG15', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-ca-doc-'));
    const specimen = await run([
      'specimen',
      '--api',
      `${t.baseUrl}/app/v1`,
      '--face',
      join(FACES, 'sheldon-document.jpg'),
      '--clone-detection',
      'chip-authentication',
      '--out',
      dir,
    ]);
    expect(specimen.stderr).toBe('');
    const files = readdirSync(dir);
    expect(files).toEqual(expect.arrayContaining(['ca-key.der', 'dg14.bin']));
    expect(files).not.toContain('dg15.bin');

    const browser = new TestBrowser(t.baseUrl);
    const page = await browser.follow(await browser.get((await authorizationRequest(config)).url.toString()));
    const link = /<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(page.html)![1].replace(/&amp;/g, '&');
    const verify = await run([
      '--session',
      link,
      '--document',
      dir,
      '--selfie',
      join(FACES, 'sheldon-center.png'),
      '--left',
      join(FACES, 'sheldon-left.png'),
      '--right',
      join(FACES, 'sheldon-right.png'),
    ]);
    expect(JSON.parse(verify.stdout)).toMatchObject({ state: 'completed', authentication_result: 'pass' });
    expect(verify.code).toBe(0);
  }, 240_000);
});
