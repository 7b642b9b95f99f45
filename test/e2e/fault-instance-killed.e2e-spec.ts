import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, finishTestEidLogin, REDIRECT_URI } from '../support/oidc-flow.js';
import { startInstanceRouter, type InstanceRouter } from '../support/instance-router.js';
import { TestBrowser } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { describeWithPostgres } from '../support/describe-with-postgres.js';
import { freePort } from '../support/free-port.js';

/**
 * Issue 15, point 6: two instances of the service on one PostgreSQL behind one address. The instance that
 * began a login is killed (SIGKILL: no shutdown hooks, nothing flushed) in the middle of it; the balancer
 * sends the user's next request to the other instance, which finishes the login, and the merchant redeems
 * the code there. Nothing of a flow lives only in one process.
 */
describeWithPostgres('an instance killed in the middle of a login', () => {
  let proxy: InstanceRouter;
  let survivor: TestApp;
  let victim: ChildProcess | undefined;
  let victimDataDir: string;
  let victimStderr = '';

  beforeAll(async () => {
    proxy = await startInstanceRouter();
    survivor = await startTestApp({ env: { BASE_URL: proxy.url } });
    const victimPort = await freePort();
    victimDataDir = mkdtempSync(join(tmpdir(), 'broker-victim-'));
    // Exactly the survivor's configuration: a REDIS_URL of the CI's environment would give the two different stores.
    const env: Record<string, string | undefined> = {
      ...process.env,
      REDIS_URL: undefined,
      ...survivor.env,
      PORT: String(victimPort),
      DATA_DIR: victimDataDir,
      NODE_OPTIONS: '',
    };
    for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
    victim = spawn(process.execPath, ['--import', './test/support/swc-register.mjs', 'src/main.ts'], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    victim.stderr!.on('data', (chunk: Buffer) => (victimStderr += chunk.toString()));
    await waitForHealth(victimPort, 90_000);
    proxy.instances = { survivor: (survivor.app.getHttpServer().address() as AddressInfo).port, victim: victimPort };
    proxy.route = 'victim';
  }, 120_000);

  afterAll(async () => {
    victim?.kill('SIGKILL');
    await survivor?.close();
    await proxy?.close();
    rmSync(victimDataDir, { recursive: true, force: true });
  });

  async function waitForHealth(port: number, ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (victim?.exitCode !== null && victim?.exitCode !== undefined) throw new Error(`the instance exited at start:\n${victimStderr}`);
      const res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
      if (res?.status === 200) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`the instance did not answer within ${ms} ms:\n${victimStderr}`);
  }

  it('finishes the login on the surviving instance', async () => {
    const merchant = await adminClient(proxy.url, survivor.adminToken).createMerchant({ name: 'Failover shop', redirect_uris: [REDIRECT_URI] });
    const config = await discover(`${proxy.url}/oidc`, merchant.client_id, merchant.client_secret);
    const request = await authorizationRequest(config, { scope: 'openid profile' });
    const browser = new TestBrowser(proxy.url);
    let page = await browser.follow(await browser.get(request.url.toString()));
    if (page.html.includes('data-eid="test"')) page = await browser.submit(page, 'eid', 'test');
    expect(page.html).toContain('data-person=');

    const exited = new Promise((resolve) => victim!.once('exit', resolve));
    victim!.kill('SIGKILL');
    await exited;
    // The balancer's health check has taken the dead instance out.
    proxy.route = 'survivor';

    const tokens = await finishTestEidLogin(browser, page, config, request);
    expect(tokens.claims()).toMatchObject({ iss: `${proxy.url}/oidc`, sub: expect.any(String) });
    const info = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    expect(info.sub).toBe(tokens.claims()!.sub);
  }, 60_000);
});
