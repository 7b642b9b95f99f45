/**
 * The test wallet's Authorization Code flow (OpenID4VCI 1.0 §5; scripts/test-wallet/authorization.ts) against a
 * stand-in issuer and authorization server written here with node:http. The stand-in's authorize endpoint plays the
 * browser's trip (it redirects at once, with a code or a refusal); its token endpoint checks what a real one would
 * (the code, redirect_uri, client_id, the PKCE verifier against the challenge, a DPoP proof) and says what is wrong.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calculateJwkThumbprint, compactVerify, decodeJwt, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { finishAuthorization, startAuthorization, type PendingAuthorization } from './authorization.js';
import { CredentialStore } from './credential-store.js';
import { runScript } from '../../test/support/run-script.js';
import { startRecordingServer, type RecordingServer, type SeenRequest } from '../../test/support/wallet/recording-server.js';
import { issueTinySdJwtVc, tinySigner, type TinySigner } from '../../test/support/wallet/tiny-sd-jwt-issuer.js';

type Seen = SeenRequest;

const CLIENT_ID = 'test-wallet';
const REDIRECT_URI = 'https://wallet.example/cb';
const CODE = 'authorization-code-1';
const TOKEN = 'stand-in-access-token';
const C_NONCE = 'c-nonce-1';
const CLAIMS = { document_number: 'X0000000', issuing_country: 'UTO', age_equal_or_over: { '18': true } };
const s256 = (text: string) => createHash('sha256').update(text).digest('base64url');

describe('the test wallet receives credentials with the OpenID4VCI 1.0 authorization code flow', () => {
  let server: RecordingServer;
  let base = '';
  let issuer = '';
  let signer: TinySigner;
  let dir = '';
  const seen: Seen[] = [];
  /** What the stand-in does at its authorize endpoint, and what its AS metadata says. */
  const behaviour = { refuse: false, iss: '', pkce: true as boolean, authorizationEndpoint: true };
  /** What the authorize endpoint was asked with: the token endpoint holds the code to it, as a server does. */
  let authorized: URLSearchParams | undefined;
  let challenged = false;

  async function answer(req: IncomingMessage, body: string): Promise<[number, Record<string, string>, unknown]> {
    const json = { 'content-type': 'application/json' };
    const url = new URL(req.url ?? '', base);
    if (url.pathname === '/.well-known/openid-credential-issuer/vci') {
      return [
        200,
        json,
        {
          credential_issuer: issuer,
          credential_endpoint: `${issuer}/credential`,
          nonce_endpoint: `${issuer}/nonce`,
          batch_credential_issuance: { batch_size: 10 },
          credential_configurations_supported: {
            verified_document_identity: {
              format: 'dc+sd-jwt',
              vct: `${base}/vct/vdi`,
              proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256'] } },
            },
          },
        },
      ];
    }
    if (url.pathname === '/.well-known/oauth-authorization-server/vci') {
      return [
        200,
        json,
        {
          issuer,
          token_endpoint: `${issuer}/token`,
          ...(behaviour.authorizationEndpoint ? { authorization_endpoint: `${issuer}/authorize` } : {}),
          response_types_supported: ['code'],
          code_challenge_methods_supported: behaviour.pkce ? ['S256'] : ['plain'],
          grant_types_supported: ['authorization_code', 'urn:ietf:params:oauth:grant-type:pre-authorized_code'],
          dpop_signing_alg_values_supported: ['ES256'],
        },
      ];
    }
    if (url.pathname === '/vci/authorize') {
      authorized = url.searchParams;
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      if (behaviour.refuse) back.searchParams.set('error', 'access_denied');
      else back.searchParams.set('code', CODE);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      back.searchParams.set('iss', behaviour.iss || issuer);
      return [303, { location: back.href }, null];
    }
    if (url.pathname === '/vci/token') {
      // RFC 9449 §8: the first token request is answered with a nonce challenge.
      if (!challenged) {
        challenged = true;
        return [400, { ...json, 'dpop-nonce': 'as-nonce-1' }, { error: 'use_dpop_nonce' }];
      }
      const form = new URLSearchParams(body);
      if (typeof req.headers.dpop !== 'string') return [400, json, { error: 'invalid_dpop_proof' }];
      // RFC 6749 §4.1.3 and RFC 7636 §4.6: the code, for this client and redirect_uri, and the verifier of its challenge.
      const matches =
        form.get('grant_type') === 'authorization_code' &&
        form.get('code') === CODE &&
        authorized !== undefined &&
        form.get('client_id') === authorized.get('client_id') &&
        form.get('redirect_uri') === authorized.get('redirect_uri') &&
        s256(form.get('code_verifier') ?? '') === authorized.get('code_challenge');
      if (!matches) return [400, json, { error: 'invalid_grant' }];
      return [200, { ...json, 'cache-control': 'no-store' }, { access_token: TOKEN, token_type: 'DPoP', expires_in: 300 }];
    }
    if (url.pathname === '/vci/nonce') return [200, { ...json, 'cache-control': 'no-store' }, { c_nonce: C_NONCE }];
    if (url.pathname === '/vci/credential') {
      if (req.headers.authorization !== `DPoP ${TOKEN}`) return [401, { 'www-authenticate': 'DPoP error="invalid_token"' }, null];
      const proofs = (JSON.parse(body) as { proofs: { jwt: string[] } }).proofs.jwt;
      const credentials = await Promise.all(
        proofs.map(async (proof) => ({
          credential: await issueTinySdJwtVc(signer, {
            iss: issuer,
            vct: `${base}/vct/vdi`,
            holderJwk: decodeProtectedHeader(proof).jwk as JWK,
            claims: CLAIMS,
          }),
        })),
      );
      return [200, json, { credentials }];
    }
    return [404, json, { error: 'not_found' }];
  }

  /** The browser: opens the authorization URL and is sent back to the redirect URI (not followed: the wallet.example page). */
  async function browse(authorizationUrl: string): Promise<string> {
    const res = await fetch(authorizationUrl, { redirect: 'manual' });
    expect(res.status).toBe(303);
    return res.headers.get('location')!;
  }

  beforeAll(async () => {
    signer = await tinySigner();
    server = await startRecordingServer(seen, answer, { keepQuery: false });
    base = server.base;
    issuer = `${base}/vci`;
    dir = mkdtempSync(join(tmpdir(), 'test-wallet-auth-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  });
  beforeEach(() => {
    seen.length = 0;
    authorized = undefined;
    challenged = false;
    Object.assign(behaviour, { refuse: false, iss: '', pkce: true, authorizationEndpoint: true });
  });

  const start = () => startAuthorization({ credentialIssuer: issuer, clientId: CLIENT_ID, redirectUri: REDIRECT_URI });

  it('asks with PKCE S256, authorization_details and a fresh state, and redeems the code with the verifier and a DPoP proof', async () => {
    const started = await start();
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'GET /.well-known/openid-credential-issuer/vci',
      'GET /.well-known/oauth-authorization-server/vci',
    ]);
    // RFC 7636 §4.1: 43 to 128 unreserved characters.
    expect(started.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(started.state.length).toBeGreaterThanOrEqual(22);
    const url = new URL(started.authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${issuer}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      code_challenge: s256(started.codeVerifier),
      code_challenge_method: 'S256',
      state: started.state,
      authorization_details: '[{"type":"openid_credential","credential_configuration_id":"verified_document_identity"}]',
    });
    const again = await start();
    expect(again.state).not.toBe(started.state);
    expect(again.codeVerifier).not.toBe(started.codeVerifier);

    const redirectedTo = await browse(started.authorizationUrl);
    seen.length = 0;
    const received = await finishAuthorization({ started, redirectedTo, batch: 2 });
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'GET /.well-known/openid-credential-issuer/vci',
      'GET /.well-known/oauth-authorization-server/vci',
      'POST /vci/token',
      'POST /vci/token',
      'POST /vci/nonce',
      'POST /vci/credential',
    ]);
    const [, , token1, token2, , credential] = seen;
    expect(token2.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(token2.body))).toEqual({
      grant_type: 'authorization_code',
      code: CODE,
      redirect_uri: REDIRECT_URI,
      code_verifier: started.codeVerifier,
      client_id: CLIENT_ID,
    });

    // RFC 9449 §4.2: one DPoP key, a proof per request, the server's nonce once given, ath at the credential endpoint.
    const proofs = await Promise.all(
      [token1, token2, credential].map(async (s) => {
        const jwt = s.headers.dpop as string;
        const header = decodeProtectedHeader(jwt);
        await compactVerify(jwt, await importJWK(header.jwk as JWK, 'ES256'));
        return { header, claims: decodeJwt(jwt) };
      }),
    );
    for (const p of proofs) expect(p.header).toMatchObject({ typ: 'dpop+jwt', alg: 'ES256', jwk: proofs[0].header.jwk });
    expect(proofs[0].header.jwk).not.toHaveProperty('d');
    expect(proofs[0].claims).toEqual({ jti: expect.any(String), htm: 'POST', htu: `${issuer}/token`, iat: expect.any(Number) });
    expect(proofs[1].claims).toMatchObject({ htm: 'POST', htu: `${issuer}/token`, nonce: 'as-nonce-1' });
    expect(proofs[2].claims).toMatchObject({ htm: 'POST', htu: `${issuer}/credential`, ath: s256(TOKEN) });
    expect(credential.headers.authorization).toBe(`DPoP ${TOKEN}`);

    // §8.2 as in the pre-authorized flow: the configuration id, one proof per fresh key over the c_nonce.
    const request = JSON.parse(credential.body) as { credential_configuration_id: string; proofs: { jwt: string[] } };
    expect(request.credential_configuration_id).toBe('verified_document_identity');
    expect(request.proofs.jwt.map((p) => decodeJwt(p))).toEqual([1, 2].map(() => ({ aud: issuer, iat: expect.any(Number), nonce: C_NONCE })));

    expect(received).toHaveLength(2);
    for (const entry of received) {
      expect(entry).toMatchObject({ format: 'dc+sd-jwt', vct: `${base}/vct/vdi`, issuer, uses: 0 });
      const cnf = (decodeJwt(entry.credential.split('~')[0]).cnf as { jwk: JWK }).jwk;
      const { d, ...publicPart } = entry.holderPrivateJwk;
      expect(d).toEqual(expect.any(String));
      expect(await calculateJwkThumbprint(publicPart as JWK)).toBe(await calculateJwkThumbprint(cnf));
    }
    const store = new CredentialStore(join(dir, 'store.json'));
    store.add(received);
    expect(store.list()).toEqual(received);
  });

  it('refuses a redirect with another state, another iss, no iss, at another address, or with error=access_denied, before any token request', async () => {
    const started = await start();
    const redirectedTo = await browse(started.authorizationUrl);
    const altered = (change: (u: URL) => void) => {
      const u = new URL(redirectedTo);
      change(u);
      return u.href;
    };
    const other: PendingAuthorization = await start();
    const refusals: [string, RegExp][] = [
      [altered((u) => u.searchParams.set('state', other.state)), /state is not this authorization's/],
      [altered((u) => u.searchParams.delete('state')), /state is not this authorization's/],
      [altered((u) => u.searchParams.append('state', started.state)), /state more than once/],
      [altered((u) => u.searchParams.delete('iss')), /no iss/],
      [altered((u) => (u.pathname = '/elsewhere')), /not at this authorization's redirect_uri/],
      ['not a url', /not a URL/],
    ];
    behaviour.iss = `${base}/other-as`;
    refusals.push([await browse(started.authorizationUrl), /iss is not the authorization server this wallet asked/]);
    Object.assign(behaviour, { iss: '', refuse: true });
    refusals.push([await browse(started.authorizationUrl), /^the authorization server refused: access_denied$/]);
    seen.length = 0;
    for (const [url, why] of refusals) await expect(finishAuthorization({ started, redirectedTo: url })).rejects.toThrow(why);
    expect(seen).toEqual([]);

    // A verifier that is not the challenge's is refused by the server (the stand-in checks as one would).
    Object.assign(behaviour, { refuse: false });
    await expect(finishAuthorization({ started: { ...started, codeVerifier: other.codeVerifier }, redirectedTo })).rejects.toThrow(
      'token endpoint: the server answered 400 (invalid_grant)',
    );
  });

  it('refuses to start without an authorization endpoint or S256, or with a redirect URI of plain http elsewhere', async () => {
    behaviour.authorizationEndpoint = false;
    await expect(start()).rejects.toThrow('no authorization_endpoint');
    Object.assign(behaviour, { authorizationEndpoint: true, pkce: false });
    await expect(start()).rejects.toThrow('PKCE with S256 is not supported');
    await expect(startAuthorization({ credentialIssuer: issuer, clientId: CLIENT_ID, redirectUri: 'http://wallet.example/cb' })).rejects.toThrow(
      'not a loopback address',
    );
    await expect(startAuthorization({ credentialIssuer: issuer, clientId: CLIENT_ID, redirectUri: REDIRECT_URI, configurationId: 'other' })).rejects.toThrow(
      'no credential configuration other',
    );
  });

  it('npm run test-wallet -- authorize prints the URL and keeps the pending request (0600); authorized finishes and stores', async () => {
    const storePath = join(dir, 'cli.json');
    const pendingPath = `${storePath}.authorization.json`;
    const started = await runScript('scripts/test-wallet/main.ts', [
      'authorize',
      '--issuer',
      issuer,
      '--client-id',
      CLIENT_ID,
      '--redirect-uri',
      REDIRECT_URI,
      '--store',
      storePath,
    ]);
    expect([started.code, started.stderr]).toEqual([0, '']);
    const authorizationUrl = /^ {2}(http\S+)$/m.exec(started.stdout)![1];
    expect(statSync(pendingPath).mode & 0o777).toBe(0o600);
    const pending = (JSON.parse(readFileSync(pendingPath, 'utf8')) as { pending: PendingAuthorization }).pending;
    expect(pending).toMatchObject({
      authorizationUrl,
      credentialIssuer: issuer,
      authorizationServer: issuer,
      clientId: CLIENT_ID,
      redirectUri: REDIRECT_URI,
      configurationId: 'verified_document_identity',
    });
    expect(new URL(authorizationUrl).searchParams.get('code_challenge')).toBe(s256(pending.codeVerifier));
    expect(started.stdout).not.toContain(pending.codeVerifier);

    const redirectedTo = await browse(authorizationUrl);
    const finished = await runScript('scripts/test-wallet/main.ts', ['authorized', redirectedTo, '--batch', '2', '--store', storePath]);
    expect([finished.code, finished.stderr]).toEqual([0, '']);
    expect(finished.stdout).toBe(
      `Received 2 credentials (dc+sd-jwt) from ${issuer}\n  vct ${base}/vct/vdi\n  disclosable claims: document_number, issuing_country, age_equal_or_over, age_equal_or_over.18\nStored in ${storePath} (it holds 2 now).\n`,
    );
    expect(existsSync(pendingPath)).toBe(false);
    expect(statSync(storePath).mode & 0o777).toBe(0o600);

    const help = await runScript('scripts/test-wallet/main.ts', ['--help']);
    expect(help.stdout).toMatch(
      /authorize --issuer <credential issuer> --client-id <id> --redirect-uri <uri>[\s\S]*authorized '<redirected URL>' \[--batch <n>\]/,
    );
    for (const args of [
      ['authorized', redirectedTo, '--store', storePath],
      ['authorize', '--issuer', issuer],
      ['authorized', redirectedTo, '--bogus'],
    ]) {
      const bad = await runScript('scripts/test-wallet/main.ts', args);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/^test-wallet: [^\n]+\n$/);
    }
  });
});
