import { createHash } from 'node:crypto';
import { MAX_TX_CODE_FAILURES } from '../../src/credential-issuer/issuances/credential-issuances.service.js';
import { dpopProof, keyProof, offerFor, testKey, type TestKey } from '../support/credential-issuer.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const PRE_AUTH = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
const ath = (token: string) => createHash('sha256').update(token).digest('base64url');
const now = () => Math.floor(Date.now() / 1000);

/** The issuer refuses what the OpenID4VCI libraries, which keep no state, would let through (each a test). */
describe('credential issuer: refusals', () => {
  let t: TestApp;
  let issuer: string;
  let url: (path: string) => string;

  beforeAll(async () => {
    t = await startTestApp();
    issuer = `${t.baseUrl}/vci`;
    url = (path) => `${t.baseUrl}${path}`;
  });
  afterAll(() => t?.close());

  const offerDetails = async () => {
    const made = await offerFor(t);
    const offer = (await (await fetch(made.offerUri)).json()) as { grants: Record<string, { 'pre-authorized_code': string }> };
    return { ...made, code: offer.grants[PRE_AUTH]['pre-authorized_code'], txCode: made.offer.txCode };
  };

  const token = async (key: TestKey, form: Record<string, string>, proof?: string) =>
    fetch(url('/vci/token'), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(proof !== '' ? { dpop: proof ?? (await dpopProof(key, 'POST', url('/vci/token'))) } : {}),
      },
      body: new URLSearchParams(form),
    });

  const redeemed = async (key: TestKey) => {
    const o = await offerDetails();
    const res = await token(key, { grant_type: PRE_AUTH, 'pre-authorized_code': o.code, tx_code: o.txCode });
    expect(res.status).toBe(200);
    return { ...o, accessToken: ((await res.json()) as { access_token: string }).access_token };
  };

  const nonce = async () => ((await (await fetch(url('/vci/nonce'), { method: 'POST' })).json()) as { c_nonce: string }).c_nonce;

  const credential = async (key: TestKey, accessToken: string, body: unknown, scheme = 'DPoP') =>
    fetch(url('/vci/credential'), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `${scheme} ${accessToken}`,
        dpop: await dpopProof(key, 'POST', url('/vci/credential'), { ath: ath(accessToken) }),
      },
      body: JSON.stringify(body),
    });

  const request = (...jwts: string[]) => ({ credential_configuration_id: 'verified_document_identity', proofs: { jwt: jwts } });
  const errorOf = async (res: Response) => ({ status: res.status, error: ((await res.json()) as { error: string }).error });

  describe('token endpoint', () => {
    it('refuses a token request without a DPoP proof (HAIP: the token must be sender-constrained)', async () => {
      const o = await offerDetails();
      expect(await errorOf(await token(await testKey(), { grant_type: PRE_AUTH, 'pre-authorized_code': o.code, tx_code: o.txCode }, ''))).toEqual({
        status: 400,
        error: 'invalid_dpop_proof',
      });
    });

    it('refuses a wrong transaction code, and burns the offer after too many: the right code then finds nothing', async () => {
      const key = await testKey();
      const o = await offerDetails();
      const wrong = o.txCode === '000000' ? '000001' : '000000';
      for (let i = 0; i < MAX_TX_CODE_FAILURES; i++)
        expect(await errorOf(await token(key, { grant_type: PRE_AUTH, 'pre-authorized_code': o.code, tx_code: wrong }))).toEqual({
          status: 400,
          error: 'invalid_grant',
        });
      expect(await errorOf(await token(key, { grant_type: PRE_AUTH, 'pre-authorized_code': o.code, tx_code: o.txCode }))).toEqual({
        status: 400,
        error: 'invalid_grant',
      });
      expect((await fetch(o.offerUri)).status).toBe(404);
    });

    it('redeems a pre-authorized code once: a replay, and a second wallet racing the first, get nothing', async () => {
      const o = await offerDetails();
      const [a, b] = await Promise.all([testKey(), testKey()]);
      const answers = await Promise.all([
        token(a, { grant_type: PRE_AUTH, 'pre-authorized_code': o.code, tx_code: o.txCode }),
        token(b, { grant_type: PRE_AUTH, 'pre-authorized_code': o.code, tx_code: o.txCode }),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
      expect(await errorOf(await token(a, { grant_type: PRE_AUTH, 'pre-authorized_code': o.code, tx_code: o.txCode }))).toEqual({
        status: 400,
        error: 'invalid_grant',
      });
      // The offer is gone once redeemed: the credential_offer_uri answers 404.
      expect((await fetch(o.offerUri)).status).toBe(404);
    });

    it('refuses a DPoP proof used twice, for another URL, or too old', async () => {
      const key = await testKey();
      const proof = await dpopProof(key, 'POST', url('/vci/token'));
      const codes = (o: { code: string; txCode: string }) => ({ grant_type: PRE_AUTH, 'pre-authorized_code': o.code, tx_code: o.txCode });
      expect((await token(key, codes(await offerDetails()), proof)).status).toBe(200);
      // The proof got a token, so it is spent: with another offer's right codes it is refused, and spends nothing.
      const o = await offerDetails();
      expect(await errorOf(await token(key, codes(o), proof))).toEqual({ status: 400, error: 'invalid_dpop_proof' });
      expect((await token(key, codes(o))).status).toBe(200);
      const form = { grant_type: PRE_AUTH, 'pre-authorized_code': (await offerDetails()).code, tx_code: 'wrong!' };
      expect(await errorOf(await token(key, form, await dpopProof(key, 'POST', url('/vci/credential'))))).toEqual({ status: 400, error: 'invalid_dpop_proof' });
      expect(await errorOf(await token(key, form, await dpopProof(key, 'POST', url('/vci/token'), { iat: now() - 3600 })))).toEqual({
        status: 400,
        error: 'invalid_dpop_proof',
      });
      expect(await errorOf(await token(key, form, await dpopProof(key, 'GET', url('/vci/token'))))).toEqual({ status: 400, error: 'invalid_dpop_proof' });
    });

    it('answers an unknown grant type and a repeated parameter with OAuth errors', async () => {
      const key = await testKey();
      expect(await errorOf(await token(key, { grant_type: 'client_credentials' }))).toEqual({ status: 400, error: 'unsupported_grant_type' });
      expect(
        await errorOf(
          await token(key, {
            grant_type: 'authorization_code',
            code: 'x',
            redirect_uri: 'https://wallet.example/cb',
            client_id: 'w',
            code_verifier: 'v'.repeat(43),
          }),
        ),
      ).toEqual({ status: 400, error: 'invalid_grant' });
      const res = await fetch(url('/vci/token'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await dpopProof(key, 'POST', url('/vci/token')) },
        body: `grant_type=${encodeURIComponent(PRE_AUTH)}&pre-authorized_code=a&pre-authorized_code=b`,
      });
      expect(await errorOf(res)).toEqual({ status: 400, error: 'invalid_request' });
    });
  });

  describe('credential endpoint', () => {
    it("refuses the token as a Bearer token, and under another wallet's DPoP key", async () => {
      const key = await testKey();
      const { accessToken } = await redeemed(key);
      const body = request(await keyProof(await testKey(), issuer, await nonce()));
      const bearer = await credential(key, accessToken, body, 'Bearer');
      expect(bearer.status).toBe(401);
      expect(bearer.headers.get('www-authenticate')).toMatch(/^DPoP /);
      const other = await credential(await testKey(), accessToken, body);
      expect(await errorOf(other)).toEqual({ status: 401, error: 'invalid_token' });
      expect(other.headers.get('www-authenticate')).toContain('error="invalid_token"');
    });

    it('refuses key proofs: wrong or reused nonce, stale iat, another audience, no key, alg none, one key twice', async () => {
      const key = await testKey();
      const { accessToken } = await redeemed(key);
      const holder = await testKey();
      const send = async (...jwts: string[]) => errorOf(await credential(key, accessToken, request(...jwts)));
      expect(await send(await keyProof(holder, issuer, 'not-a-nonce-of-ours'))).toEqual({ status: 400, error: 'invalid_nonce' });
      expect(await send(await keyProof(holder, issuer, undefined))).toMatchObject({ status: 400 });
      expect(await send(await keyProof(holder, issuer, await nonce(), { iat: now() - 3600 }))).toEqual({ status: 400, error: 'invalid_proof' });
      expect(await send(await keyProof(holder, `${t.baseUrl}/another-issuer`, await nonce()))).toEqual({ status: 400, error: 'invalid_proof' });
      expect(await send(await keyProof(holder, issuer, await nonce(), { header: { jwk: undefined } }))).toEqual({ status: 400, error: 'invalid_proof' });
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'openid4vci-proof+jwt', jwk: holder.jwk })).toString('base64url')}.${Buffer.from(JSON.stringify({ aud: issuer, iat: now(), nonce: await nonce() })).toString('base64url')}.`;
      // Not even a JWS the request's schema takes (no signature): refused with the request.
      expect(await send(unsigned)).toEqual({ status: 400, error: 'invalid_credential_request' });
      const n = await nonce();
      expect(await send(await keyProof(holder, issuer, n), await keyProof(holder, issuer, n))).toEqual({ status: 400, error: 'invalid_proof' });
      // A nonce is spent by the request that carried it, good or bad.
      const spent = await nonce();
      await send(await keyProof(holder, issuer, spent, { iat: now() - 3600 }));
      expect(await send(await keyProof(holder, issuer, spent))).toEqual({ status: 400, error: 'invalid_nonce' });
      // None of the refusals spent the token: a good request still issues.
      const ok = await credential(key, accessToken, request(await keyProof(holder, issuer, await nonce())));
      expect(ok.status).toBe(200);
    });

    it('issues one batch per token: the same token again is refused', async () => {
      const key = await testKey();
      const { accessToken } = await redeemed(key);
      const n = await nonce();
      const first = await credential(key, accessToken, request(await keyProof(await testKey(), issuer, n), await keyProof(await testKey(), issuer, n)));
      expect(first.status).toBe(200);
      expect(((await first.json()) as { credentials: unknown[] }).credentials).toHaveLength(2);
      expect(await errorOf(await credential(key, accessToken, request(await keyProof(await testKey(), issuer, await nonce()))))).toEqual({
        status: 401,
        error: 'invalid_token',
      });
    });

    it('refuses more proofs than the batch size, another configuration, and the draft request shapes', async () => {
      const key = await testKey();
      const { accessToken } = await redeemed(key);
      const n = await nonce();
      const many = await Promise.all(Array.from({ length: t.config.credentialIssuer.batchSize + 1 }, async () => keyProof(await testKey(), issuer, n)));
      expect(await errorOf(await credential(key, accessToken, request(...many)))).toEqual({ status: 400, error: 'invalid_credential_request' });
      expect(await errorOf(await credential(key, accessToken, { credential_configuration_id: 'eu.europa.ec.eudi.pid.1', proofs: { jwt: [many[0]] } }))).toEqual(
        { status: 400, error: 'unknown_credential_configuration' },
      );
      expect(
        await errorOf(
          await credential(key, accessToken, { credential_configuration_id: 'verified_document_identity', proof: { proof_type: 'jwt', jwt: many[0] } }),
        ),
      ).toEqual({ status: 400, error: 'invalid_credential_request' });
      expect(await errorOf(await credential(key, accessToken, { format: 'vc+sd-jwt', vct: 'x', proofs: { jwt: [many[0]] } }))).toEqual({
        status: 400,
        error: 'invalid_credential_request',
      });
    });
  });

  describe("the person's revocation link, before anything was issued", () => {
    /** The person opens the link shown with the offer and confirms (the page's CSRF form); the answer (303, post/redirect/get). */
    const revokeAsThePerson = async (revokeUrl: string) => {
      const page = await fetch(revokeUrl);
      expect(page.status).toBe(200);
      const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1];
      const cookie = page.headers.get('set-cookie')!.split(';')[0];
      return fetch(revokeUrl, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({ _csrf: csrf }),
      });
    };

    it('burns the offer not yet taken: the right code is then refused invalid_grant, the offer link is gone', async () => {
      const o = await offerDetails();
      const revoked = await revokeAsThePerson(o.offer.revokeUrl);
      expect(revoked.status).toBe(303);
      expect(await errorOf(await token(await testKey(), { grant_type: PRE_AUTH, 'pre-authorized_code': o.code, tx_code: o.txCode }))).toEqual({
        status: 400,
        error: 'invalid_grant',
      });
      expect((await fetch(o.offerUri)).status).toBe(404);
      expect((await fetch(o.offer.revokeUrl)).status).toBe(404);
    });

    it('burns an offer redeemed but not yet issued: its access token issues nothing', async () => {
      const key = await testKey();
      const r = await redeemed(key);
      expect((await revokeAsThePerson(r.offer.revokeUrl)).status).toBe(303);
      const n = await nonce();
      expect(await errorOf(await credential(key, r.accessToken, request(await keyProof(await testKey(), issuer, n))))).toEqual({
        status: 401,
        error: 'invalid_token',
      });
      const [{ state, issued_count }] = await t.dataSource.query('SELECT state, issued_count FROM credential_issuances WHERE record_id = $1', [r.recordId]);
      expect([state, issued_count]).toEqual(['burnt', 0]);
    });
  });

  it('answers fuzzed bodies at every endpoint with a 4xx, never a 5xx', async () => {
    const key = await testKey();
    const { accessToken } = await redeemed(key);
    const bodies: unknown[] = [
      '',
      'null',
      '[]',
      '{"proofs":{"jwt":"x"}}',
      '{"proofs":{"jwt":[1,2]}}',
      '{"credential_configuration_id":{"a":1}}',
      '{"proofs":{"jwt":["a.b.c"]},"credential_configuration_id":"verified_document_identity"}',
      'é'.repeat(70_000),
      '{"a":'.repeat(50),
    ];
    for (const body of bodies) {
      const res = await fetch(url('/vci/credential'), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `DPoP ${accessToken}`,
          dpop: await dpopProof(key, 'POST', url('/vci/credential'), { ath: ath(accessToken) }),
        },
        body: body as string,
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    for (const dpop of ['x', 'a.b.c', `${'e'.repeat(20)}.${'e'.repeat(20)}.${'e'.repeat(20)}`, '\u00e9']) {
      const res = await fetch(url('/vci/token'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: encodeURIComponent(dpop) },
        body: `grant_type=${encodeURIComponent(PRE_AUTH)}&pre-authorized_code=x`,
      });
      expect(res.status).toBe(400);
    }
    for (const path of ['/vci/offers/x', '/vci/offers/' + 'a'.repeat(43), '/vci/offers/%00']) expect((await fetch(url(path))).status).toBeLessThan(500);
  });

  /** Path segments no handle, list id or metadata path has: very long, NUL, non-UTF-8 and truncated percent escapes, dot segments. */
  const GARBAGE_SEGMENTS = [
    'x',
    'a'.repeat(43),
    'a'.repeat(8000),
    '%00',
    'a%00b',
    '%FF%FE',
    '%C3%28',
    '%E0%A4%A',
    '%',
    '%25',
    '%2e%2e%2f%2e%2e',
    '..%2F..%2Fetc',
    '%C3%A9',
    '%F0%9F%98%80',
    'AAAAAAAAAAAAAAAA',
    'A'.repeat(15) + '%00',
  ];
  /** Query strings the extended parser turns into arrays and objects, repeated, empty or not UTF-8. */
  const GARBAGE_QUERIES = [
    '',
    '?',
    '?ui_locales=%FF',
    '?ui_locales[]=en&ui_locales[]=sv',
    '?ui_locales[a]=b',
    '?ui_locale=%00&ui_locales=' + 'x '.repeat(3000),
    '?a[b][c][d][e][f]=1',
    '?=&&=',
    '?%FF=%FE',
  ];
  /** Every answer below 500; the 5xx ones are named. */
  const serverErrors = async (requests: [string, string, RequestInit?][]) => {
    const failed: string[] = [];
    for (const [method, path, init] of requests) {
      const res = await fetch(url(path), { method, redirect: 'manual', ...init });
      await res.arrayBuffer();
      if (res.status >= 500) failed.push(`${method} ${path.slice(0, 80)} → ${res.status}`);
    }
    return failed;
  };

  it('answers fuzzed paths and parameters at the remaining routes below 500 (revocation page, status lists, nonce, metadata)', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const requests: [string, string, RequestInit?][] = [];
    for (const segment of GARBAGE_SEGMENTS) {
      for (const query of GARBAGE_QUERIES.slice(0, 4)) requests.push(['GET', `/vci/revoke/${segment}${query}`]);
      requests.push(['POST', `/vci/revoke/${segment}`, { headers: form, body: '_csrf=x' }]);
      requests.push(['GET', `/vci/status-lists/${segment}`], ['GET', `/vci/status-lists/${segment}/more`]);
      for (const base of ['/.well-known/openid-credential-issuer/vci', '/.well-known/oauth-authorization-server/vci', '/vct/verified-document-identity'])
        requests.push(['GET', `${base}/${segment}`], ['GET', `${base}${segment}`]);
    }
    // The revocation form: a well-shaped handle and cookie, with whatever a form or another content type can carry.
    const handle = 'a'.repeat(43);
    const cookie = `vci_revoke_csrf=${'b'.repeat(32)}`;
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', ''],
      ['application/x-www-form-urlencoded', '_csrf[]=a&_csrf[]=b'],
      ['application/x-www-form-urlencoded', '_csrf[a][b]=c&ui_locales[x]=y'],
      ['application/x-www-form-urlencoded', '_csrf=%FF%FE&_csrf=%00'],
      ['application/x-www-form-urlencoded', `_csrf=${'x'.repeat(90_000)}`],
      ['application/json', '{"_csrf":{"a":1}}'],
      ['application/json', '{"_csrf":'],
      ['text/plain', '\u0000'],
      ['multipart/form-data; boundary=x', '--x\r\ncontent-disposition: form-data; name="_csrf"\r\n\r\nx\r\n--x--'],
    ]) {
      requests.push(['POST', `/vci/revoke/${handle}`, { headers: { 'content-type': type, cookie }, body }]);
      requests.push(['POST', '/vci/nonce', { headers: { 'content-type': type }, body }]);
    }
    for (const query of GARBAGE_QUERIES) requests.push(['POST', `/vci/nonce${query}`], ['GET', `/vci/status-lists/x${query}`]);
    requests.push(['POST', '/vci/nonce', { headers: { 'content-type': 'application/json' }, body: '{"a":'.repeat(50) }]);
    requests.push(['POST', '/vci/nonce', { headers: { 'content-type': 'application/json' }, body: 'é'.repeat(70_000) }]);
    requests.push(['GET', '/vci/nonce'], ['PUT', '/vci/revoke/x'], ['DELETE', '/vci/status-lists/x']);
    expect(await serverErrors(requests)).toEqual([]);
  }, 120_000);

  /** Authorization requests (OpenID4VCI 1.0 §5.1): nothing, garbage, repeated, array- and object-shaped parameters. */
  const authorizeQueries = (clientId: string, redirectUri: string) => {
    const valid = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
      state: 's',
      scope: 'verified_document_identity',
    };
    const base = new URLSearchParams(valid).toString();
    const queries = [
      '',
      '?',
      '?client_id=',
      '?client_id=%00',
      '?client_id=%FF%FE',
      `?client_id=${'x'.repeat(3999)}`,
      `?client_id=${'x'.repeat(5000)}`,
      '?client_id[]=a',
      '?client_id[a]=b',
      '?client_id=a&client_id=b',
    ];
    for (const name of Object.keys(valid)) {
      const without = new URLSearchParams(valid);
      without.delete(name);
      queries.push(
        `?${without.toString()}`,
        `?${base}&${name}=again`,
        `?${without.toString()}&${name}[]=a&${name}[]=b`,
        `?${without.toString()}&${name}[x][y]=z`,
        `?${without.toString()}&${name}=%FF`,
        `?${without.toString()}&${name}=%00`,
        `?${without.toString()}&${name}=${'é'.repeat(2500)}`,
      );
    }
    for (const details of [
      '[',
      '{}',
      '[]',
      'null',
      '"x"',
      '[1]',
      '[null]',
      '[{"type":"openid_credential"}]',
      JSON.stringify(Array(11).fill({ type: 'openid_credential', credential_configuration_id: 'verified_document_identity' })),
      '{"a":'.repeat(200),
      '['.repeat(500),
    ])
      queries.push(`?${base.replace(/&scope=[^&]*/, '')}&authorization_details=${encodeURIComponent(details)}`);
    for (const ui of ['ui_locales=%FF', 'ui_locales[]=sv', 'ui_locales[a]=b', `ui_locales=${'x '.repeat(1999)}`])
      queries.push(`?${ui}`, `?${base}&${ui}`, `?client_id=a&${ui}`);
    queries.push(`?${base}&state=%0A`, `?${base}&state=${'s'.repeat(501)}`, `?${base}&redirect_uri=${encodeURIComponent(`${redirectUri}#x`)}`);
    return queries;
  };

  it('answers fuzzed authorization requests below 500, with no wallet registered', async () => {
    expect(
      await serverErrors(authorizeQueries('test-wallet', 'https://wallet.example/callback').map((q): [string, string] => ['GET', `/vci/authorize${q}`])),
    ).toEqual([]);
  }, 120_000);

  it('answers fuzzed authorization requests below 500, with a wallet registered', async () => {
    const redirect = 'https://wallet.example/callback';
    const registered = await startTestApp({ env: { VCI_WALLET_CLIENTS: JSON.stringify([{ client_id: 'test-wallet', redirect_uris: [redirect] }]) } });
    try {
      const failed: string[] = [];
      for (const query of authorizeQueries('test-wallet', redirect)) {
        const res = await fetch(`${registered.baseUrl}/vci/authorize${query}`, { redirect: 'manual' });
        await res.arrayBuffer();
        if (res.status >= 500) failed.push(`${query.slice(0, 120)} → ${res.status}`);
      }
      expect(failed).toEqual([]);
    } finally {
      await registered.close();
    }
  }, 180_000);
});
