import { mkdtempSync, readdirSync } from 'node:fs';
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

/** The merchant-facing test app (npm run test-app) plays the phone against a real customer-test service. */
describe('the test app command line', () => {
  let t: TestApp;
  let config: client.Configuration;

  beforeAll(async () => {
    t = await startTestApp();
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'CLI', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
  });
  afterAll(() => t.close(), 180_000);

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
    const specimen = await run(['specimen', '--api', `${t.baseUrl}/app/v1`, '--face', join(FACES, 'sheldon-document.jpg'), '--person', 'd-idcard', '--out', dir]);
    expect(specimen.stderr).toBe('');
    expect(specimen.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(expect.arrayContaining(['aa-key.der', 'dg1.bin', 'dg2.bin', 'sod.bin']));

    const browser = new TestBrowser(t.baseUrl);
    const page = await browser.follow(await browser.get((await authorizationRequest(config)).url.toString()));
    const link = /<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(page.html)![1].replace(/&amp;/g, '&');
    const verify = await run(['--session', link, '--document', dir, '--selfie', join(FACES, 'sheldon-center.png'), '--left', join(FACES, 'sheldon-left.png'), '--right', join(FACES, 'sheldon-right.png')]);
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({ state: 'completed', authentication_result: 'pass' });

    const bad = await run(['--session', 'not-a-link', '--document', dir, '--selfie', join(FACES, 'sheldon-center.png')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not a session link');
  }, 240_000);

  it('runs the Chip Authentication challenge for a specimen chip with a DG14 CA key and no DG15', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-ca-doc-'));
    const specimen = await run(['specimen', '--api', `${t.baseUrl}/app/v1`, '--face', join(FACES, 'sheldon-document.jpg'), '--clone-detection', 'chip-authentication', '--out', dir]);
    expect(specimen.stderr).toBe('');
    const files = readdirSync(dir);
    expect(files).toEqual(expect.arrayContaining(['ca-key.der', 'dg14.bin']));
    expect(files).not.toContain('dg15.bin');

    const browser = new TestBrowser(t.baseUrl);
    const page = await browser.follow(await browser.get((await authorizationRequest(config)).url.toString()));
    const link = /<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(page.html)![1].replace(/&amp;/g, '&');
    const verify = await run(['--session', link, '--document', dir, '--selfie', join(FACES, 'sheldon-center.png'), '--left', join(FACES, 'sheldon-left.png'), '--right', join(FACES, 'sheldon-right.png')]);
    expect(JSON.parse(verify.stdout)).toMatchObject({ state: 'completed', authentication_result: 'pass' });
    expect(verify.code).toBe(0);
  }, 240_000);
});
