import { createHash, randomBytes } from 'node:crypto';
import { runVerification, VerifierClient } from '@identity-broker/verifier-sdk';
import { specimenPhone } from '../../scripts/test-app/specimen-phone.js';
import { finishAuthorization, startAuthorization } from '../../scripts/test-wallet/authorization.js';
import { dpopProof, keyProof, testKey } from '../support/credential-issuer.js';
import { TestBrowser } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { SHELDON, specimenDocumentDir } from '../support/verifier-flow.js';

// Never contacted: the test reads where the browser is sent.
const REDIRECT = 'https://wallet.example/callback';
const DETAILS = JSON.stringify([{ type: 'openid_credential', credential_configuration_id: 'verified_document_identity' }]);
const unescape = (s: string) => s.replace(/&amp;/g, '&');

/** The authorization code flow (OpenID4VCI 1.0 §5): a registered wallet, PKCE, and a fresh document verification as the login. */
describe('credential issuer: authorization code flow', () => {
  let t: TestApp;
  let documentDir: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { VCI_WALLET_CLIENTS: JSON.stringify([{ client_id: 'test-wallet', redirect_uris: [REDIRECT] }]) } });
    documentDir = await specimenDocumentDir(t.baseUrl);
  }, 60_000);
  afterAll(() => t?.close());

  const pkce = () => {
    const verifier = randomBytes(32).toString('base64url');
    return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
  };
  const authorizeUrl = (params: Record<string, string>) => `${t.baseUrl}/vci/authorize?${new URLSearchParams(params).toString()}`;
  const request = (challenge: string, extra: Record<string, string> = {}) => ({
    response_type: 'code',
    client_id: 'test-wallet',
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'wallet-state-1',
    authorization_details: DETAILS,
    ...extra,
  });

  /** The browser's part: the authorization request, the broker's waiting page, the phone's verification, Continue. */
  const signIn = async (challenge: string, phone: 'pass' | 'cancel' = 'pass', url = authorizeUrl(request(challenge))) => {
    const browser = new TestBrowser(t.baseUrl);
    const waiting = await browser.follow(await browser.get(url));
    if (phone === 'cancel') return new URL((await browser.submit(waiting, 'action', 'cancel')).location!);
    const { client: sdk, qrToken } = VerifierClient.fromLink(unescape(/<a href="([^"]+)" data-action="open-app"/.exec(waiting.html)![1]));
    expect(
      (await runVerification(sdk, qrToken, specimenPhone({ documentDir, selfie: SHELDON.center, left: SHELDON.left, right: SHELDON.right })))
        .authentication_result,
    ).toBe('pass');
    return new URL((await browser.submit(waiting, 'action', 'continue')).location!);
  };

  const token = async (form: Record<string, string>) => {
    const key = await testKey();
    const res = await fetch(`${t.baseUrl}/vci/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await dpopProof(key, 'POST', `${t.baseUrl}/vci/token`) },
      body: new URLSearchParams(form),
    });
    return { key, status: res.status, body: (await res.json()) as Record<string, string> };
  };

  it('announces the authorization endpoint to registered wallets', async () => {
    const metadata = (await (await fetch(`${t.baseUrl}/.well-known/oauth-authorization-server/vci`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      authorization_endpoint: `${t.baseUrl}/vci/authorize`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(metadata.grant_types_supported).toContain('authorization_code');
  });

  it('a passed verification gives the wallet a code, which it exchanges once, with its verifier, for credentials', async () => {
    const { verifier, challenge } = pkce();
    const back = await signIn(challenge);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('wallet-state-1');
    expect(back.searchParams.get('iss')).toBe(`${t.baseUrl}/vci`);
    const code = back.searchParams.get('code')!;
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: 'test-wallet' };
    expect((await token({ ...form, code_verifier: pkce().verifier })).body.error).toBe('invalid_grant');
    const granted = await token({ ...form, code_verifier: verifier });
    expect(granted.status).toBe(200);
    expect(granted.body.token_type).toBe('DPoP');
    // Once.
    expect((await token({ ...form, code_verifier: verifier })).body.error).toBe('invalid_grant');

    const accessToken = granted.body.access_token;
    const { c_nonce: nonce } = (await (await fetch(`${t.baseUrl}/vci/nonce`, { method: 'POST' })).json()) as { c_nonce: string };
    const ath = createHash('sha256').update(accessToken).digest('base64url');
    const res = await fetch(`${t.baseUrl}/vci/credential`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `DPoP ${accessToken}`,
        dpop: await dpopProof(granted.key, 'POST', `${t.baseUrl}/vci/credential`, { ath }),
      },
      body: JSON.stringify({
        credential_configuration_id: 'verified_document_identity',
        proofs: { jwt: [await keyProof(await testKey(), `${t.baseUrl}/vci`, nonce)] },
      }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { credentials: unknown[] }).credentials).toHaveLength(1);
  }, 120_000);

  it('the test wallet (its own OAuth client code, nothing of ours) runs the flow and receives a batch', async () => {
    const started = await startAuthorization({ credentialIssuer: `${t.baseUrl}/vci`, clientId: 'test-wallet', redirectUri: REDIRECT });
    const back = await signIn('', 'pass', started.authorizationUrl);
    const credentials = await finishAuthorization({ started, redirectedTo: back.toString(), batch: 2 });
    expect(credentials).toHaveLength(2);
    expect(credentials.map((c) => c.vct)).toEqual([`${t.baseUrl}/vct/verified-document-identity`, `${t.baseUrl}/vct/verified-document-identity`]);
  }, 120_000);

  it('a cancelled verification sends the wallet access_denied, with its state and our iss', async () => {
    const back = await signIn(pkce().challenge, 'cancel');
    expect(Object.fromEntries(back.searchParams)).toEqual({ error: 'access_denied', state: 'wallet-state-1', iss: `${t.baseUrl}/vci` });
  }, 60_000);

  it('refuses an unregistered wallet or redirect URI on a page of ours, and tells a registered wallet of a bad request at its redirect URI', async () => {
    const { challenge } = pkce();
    const strangers: Record<string, string>[] = [{ client_id: 'stranger' }, { redirect_uri: 'https://attacker.example/callback' }];
    for (const bad of strangers) {
      const res = await fetch(authorizeUrl(request(challenge, bad)), { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
    const cases: [Record<string, string>, string][] = [
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: 'short' }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ authorization_details: JSON.stringify([{ type: 'openid_credential', credential_configuration_id: 'other' }]) }, 'invalid_scope'],
      [{ authorization_details: '{not json' }, 'invalid_scope'],
    ];
    for (const [bad, error] of cases) {
      const res = await fetch(authorizeUrl(request(challenge, bad)), { redirect: 'manual' });
      expect(res.status).toBe(303);
      const to = new URL(res.headers.get('location')!);
      expect([`${to.origin}${to.pathname}`, to.searchParams.get('error'), to.searchParams.get('state')]).toEqual([REDIRECT, error, 'wallet-state-1']);
    }
  });
});
