/**
 * The test wallet's OpenID4VCI holder (scripts/test-wallet) against a stand-in issuer written here with node:http:
 * fixed metadata, offer, token, nonce and credentials signed with jose, only to exercise the holder's HTTP and
 * parsing and to see what it sends. The end-to-end run against the service's issuer is another test.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calculateJwkThumbprint, compactVerify, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { parseOfferLink, resolveCredentialOffer } from './credential-offer.js';
import { CredentialStore } from './credential-store.js';
import { receiveCredentials } from './issuance.js';
import { runScript } from '../../test/support/run-script.js';
import { startRecordingServer, type RecordingServer, type SeenRequest } from '../../test/support/wallet/recording-server.js';
import { issueTinySdJwtVc, tinySigner, type TinySigner } from '../../test/support/wallet/tiny-sd-jwt-issuer.js';

type Seen = SeenRequest;

const TOKEN = 'stand-in-access-token';
const C_NONCE = 'c-nonce-1';
const CLAIMS = { document_number: 'X0000000', issuing_country: 'UTO', age_equal_or_over: { '18': true, '21': true } };

describe('the test wallet receives credentials over OpenID4VCI 1.0', () => {
  let server: RecordingServer;
  let base = '';
  let issuer = '';
  let signer: TinySigner;
  const seen: Seen[] = [];
  /** What the stand-in does: its batch size, whether it asks for DPoP nonces, whether it binds to the wrong key. */
  const behaviour = { batchSize: 10, nonceChallenges: true, wrongKey: false, metadataIssuer: '', invalidNonce: false };
  let challenged = new Set<string>();
  let dir = '';

  const offer = (txCode = true) => ({
    credential_issuer: issuer,
    credential_configuration_ids: ['verified_document_identity'],
    grants: {
      'urn:ietf:params:oauth:grant-type:pre-authorized_code': {
        'pre-authorized_code': 'pre-code-1',
        ...(txCode ? { tx_code: { length: 6, input_mode: 'numeric', description: 'From the letter' } } : {}),
      },
    },
  });
  const offerLink = () => `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(`${base}/vci/offers/1`)}`;

  async function answer(req: IncomingMessage, body: string): Promise<[number, Record<string, string>, unknown]> {
    const json = { 'content-type': 'application/json' };
    const path = req.url ?? '';
    if (path === '/vci/offers/1') return [200, json, offer()];
    if (path === '/.well-known/openid-credential-issuer/vci') {
      return [
        200,
        json,
        {
          credential_issuer: behaviour.metadataIssuer || issuer,
          credential_endpoint: `${issuer}/credential`,
          nonce_endpoint: `${issuer}/nonce`,
          batch_credential_issuance: { batch_size: behaviour.batchSize },
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
    if (path === '/.well-known/oauth-authorization-server/vci')
      return [200, json, { issuer, token_endpoint: `${issuer}/token`, dpop_signing_alg_values_supported: ['ES256'] }];
    // RFC 9449 §8 and §9: the first request to each server is answered with a nonce challenge.
    if (path === '/vci/token' && behaviour.nonceChallenges && !challenged.has('token')) {
      challenged.add('token');
      return [400, { ...json, 'dpop-nonce': 'as-nonce-1' }, { error: 'use_dpop_nonce' }];
    }
    if (path === '/vci/token') return [200, { ...json, 'cache-control': 'no-store' }, { access_token: TOKEN, token_type: 'DPoP', expires_in: 300 }];
    if (path === '/vci/nonce') return [200, { ...json, 'cache-control': 'no-store' }, { c_nonce: challenged.has('c_nonce') ? 'c-nonce-2' : C_NONCE }];
    if (path === '/vci/credential' && behaviour.nonceChallenges && !challenged.has('credential')) {
      challenged.add('credential');
      return [401, { 'www-authenticate': 'DPoP error="use_dpop_nonce"', 'dpop-nonce': 'rs-nonce-1' }, null];
    }
    if (path === '/vci/credential' && behaviour.invalidNonce && !challenged.has('c_nonce')) {
      challenged.add('c_nonce');
      return [400, json, { error: 'invalid_nonce' }];
    }
    if (path === '/vci/credential') {
      const proofs = (JSON.parse(body) as { proofs: { jwt: string[] } }).proofs.jwt;
      const other = await exportJWK((await generateKeyPair('ES256')).publicKey);
      const credentials = await Promise.all(
        proofs.map(async (proof) => ({
          credential: await issueTinySdJwtVc(signer, {
            iss: issuer,
            vct: `${base}/vct/vdi`,
            holderJwk: behaviour.wrongKey ? other : (decodeProtectedHeader(proof).jwk as JWK),
            claims: CLAIMS,
          }),
        })),
      );
      return [200, json, { credentials }];
    }
    return [404, json, { error: 'not_found' }];
  }

  beforeAll(async () => {
    signer = await tinySigner();
    server = await startRecordingServer(seen, answer, { keepQuery: true });
    base = server.base;
    issuer = `${base}/vci`;
    dir = mkdtempSync(join(tmpdir(), 'test-wallet-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  });
  beforeEach(() => {
    seen.length = 0;
    challenged = new Set();
    Object.assign(behaviour, { batchSize: 10, nonceChallenges: true, wrongKey: false, metadataIssuer: '', invalidNonce: false });
  });

  it("reads offer links by value, by reference, as https links and as the QR code's text; garbage gets a clear error", async () => {
    const byValue = `openid-credential-offer://?credential_offer=${encodeURIComponent(JSON.stringify(offer()))}`;
    expect(parseOfferLink(byValue)).toEqual({ offer: offer() });
    expect(parseOfferLink(`  ${offerLink()}\n`)).toEqual({ offerUri: `${base}/vci/offers/1` });
    expect(parseOfferLink(`https://wallet.example/offer?credential_offer_uri=${encodeURIComponent('https://issuer.example/vci/offers/9')}`)).toEqual({
      offerUri: 'https://issuer.example/vci/offers/9',
    });
    expect(parseOfferLink(JSON.stringify(offer()))).toEqual({ offer: offer() });
    expect(await resolveCredentialOffer(offerLink())).toEqual(offer());
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /vci/offers/1']);

    const refused: [string, RegExp][] = [
      ['hello', /not a credential offer link/],
      ['', /empty/],
      ['openid-credential-offer://?foo=bar', /neither credential_offer nor credential_offer_uri/],
      [`openid-credential-offer://?credential_offer=x&credential_offer_uri=${encodeURIComponent(`${base}/vci/offers/1`)}`, /more than one/],
      ['openid-credential-offer://?credential_offer=%7Bnot-json', /credential_offer is not JSON/],
      ['openid-credential-offer://?credential_offer_uri=http%3A%2F%2Fissuer.example%2Fo', /not an https URL/],
      ['mailto:someone@example.com?credential_offer_uri=x', /scheme mailto:/],
      [
        `openid-credential-offer://?credential_offer=${encodeURIComponent(JSON.stringify({ ...offer(), credential_configuration_ids: [] }))}`,
        /credential_configuration_ids/,
      ],
      [
        `openid-credential-offer://?credential_offer=${encodeURIComponent(JSON.stringify({ ...offer(), grants: { authorization_code: {} } }))}`,
        /no pre-authorized code grant/,
      ],
      [
        `openid-credential-offer://?credential_offer=${encodeURIComponent(JSON.stringify({ ...offer(), credential_issuer: 'https://issuer.example/vci?x=1' }))}`,
        /query or fragment/,
      ],
      ['x'.repeat(20000), /longer than/],
    ];
    for (const [link, why] of refused) expect(() => parseOfferLink(link)).toThrow(why);
  });

  it('takes a DPoP-bound token with the pre-authorized and transaction codes, and asks for a batch with one proof per fresh key', async () => {
    const received = await receiveCredentials({ offerLink: offerLink(), txCode: '493536', batch: 3 });
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'GET /vci/offers/1',
      'GET /.well-known/openid-credential-issuer/vci',
      'GET /.well-known/oauth-authorization-server/vci',
      'POST /vci/token',
      'POST /vci/token',
      'POST /vci/nonce',
      'POST /vci/credential',
      'POST /vci/credential',
    ]);
    const [token1, token2, , credential1, credential2] = seen.slice(3);
    expect(Object.fromEntries(new URLSearchParams(token2.body))).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
      'pre-authorized_code': 'pre-code-1',
      tx_code: '493536',
    });

    // RFC 9449 §4.2: a proof per request, with the one DPoP key; ath at the resource server; the server's nonce once given.
    const proofOf = async (s: Seen) => {
      const jwt = s.headers.dpop as string;
      const header = decodeProtectedHeader(jwt);
      await compactVerify(jwt, await importJWK(header.jwk as JWK, 'ES256'));
      return { header, claims: decodeJwt(jwt) };
    };
    const proofs = await Promise.all([token1, token2, credential1, credential2].map(proofOf));
    for (const p of proofs) expect(p.header).toMatchObject({ typ: 'dpop+jwt', alg: 'ES256', jwk: proofs[0].header.jwk });
    expect(proofs[0].header.jwk).not.toHaveProperty('d');
    expect(new Set(proofs.map((p) => p.claims.jti)).size).toBe(4);
    expect(proofs[0].claims).toEqual({ jti: expect.any(String), htm: 'POST', htu: `${issuer}/token`, iat: expect.any(Number) });
    expect(proofs[1].claims).toMatchObject({ htm: 'POST', htu: `${issuer}/token`, nonce: 'as-nonce-1' });
    const ath = createHash('sha256').update(TOKEN).digest('base64url');
    expect(proofs[2].claims).toMatchObject({ htm: 'POST', htu: `${issuer}/credential`, ath });
    expect(proofs[2].claims).not.toHaveProperty('nonce');
    expect(proofs[3].claims).toMatchObject({ htm: 'POST', htu: `${issuer}/credential`, ath, nonce: 'rs-nonce-1' });
    expect(credential2.headers.authorization).toBe(`DPoP ${TOKEN}`);

    // OpenID4VCI 1.0 §8.2, Appendix F.1: one proof per key, each over the c_nonce for the issuer.
    const request = JSON.parse(credential2.body) as { credential_configuration_id: string; proofs: { jwt: string[] } };
    expect(request.credential_configuration_id).toBe('verified_document_identity');
    expect(request.proofs.jwt).toHaveLength(3);
    const keys = new Set<string>();
    for (const proof of request.proofs.jwt) {
      const header = decodeProtectedHeader(proof);
      expect(header).toMatchObject({ typ: 'openid4vci-proof+jwt', alg: 'ES256' });
      const { payload } = await compactVerify(proof, await importJWK(header.jwk as JWK, 'ES256'));
      expect(JSON.parse(Buffer.from(payload).toString())).toEqual({ aud: issuer, iat: expect.any(Number), nonce: C_NONCE });
      keys.add(await calculateJwkThumbprint(header.jwk as JWK));
    }
    expect(keys.size).toBe(3);
    expect(keys.has(await calculateJwkThumbprint(proofs[0].header.jwk as JWK))).toBe(false);

    // Each stored credential with the private key its cnf.jwk names.
    expect(received).toHaveLength(3);
    for (const entry of received) {
      expect(entry).toMatchObject({ format: 'dc+sd-jwt', vct: `${base}/vct/vdi`, issuer, uses: 0, receivedAt: expect.any(String) });
      const cnf = (decodeJwt(entry.credential.split('~')[0]).cnf as { jwk: JWK }).jwk;
      const { d, ...publicPart } = entry.holderPrivateJwk;
      expect(d).toEqual(expect.any(String));
      expect(await calculateJwkThumbprint(publicPart as JWK)).toBe(await calculateJwkThumbprint(cnf));
    }

    const store = new CredentialStore(join(dir, 'store.json'));
    store.add(received);
    store.add(received.slice(0, 1));
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(store.list()).toEqual(received);
    const picked: string[] = [];
    for (let i = 0; i < 4; i++) {
      const next = store.pickLeastUsed((c) => c.vct === `${base}/vct/vdi`)!;
      picked.push(next.id);
      store.markUsed(next.id);
    }
    expect(new Set(picked.slice(0, 3)).size).toBe(3);
    expect(picked[3]).toBe(picked[0]);
    expect(store.list().map((c) => c.uses)).toEqual([2, 1, 1]);
    expect(store.pickLeastUsed((c) => c.vct === 'other')).toBeUndefined();
  });

  it("asks for no more than the issuer's batch size, and for one credential by default", async () => {
    Object.assign(behaviour, { batchSize: 2, nonceChallenges: false });
    expect(await receiveCredentials({ offerLink: offerLink(), txCode: '000000', batch: 5 })).toHaveLength(2);
    expect((JSON.parse(seen.at(-1)!.body) as { proofs: { jwt: string[] } }).proofs.jwt).toHaveLength(2);
    expect(await receiveCredentials({ offerLink: offerLink(), txCode: '000000' })).toHaveLength(1);
  });

  it('answers invalid_nonce with proofs over a fresh c_nonce, once', async () => {
    Object.assign(behaviour, { nonceChallenges: false, invalidNonce: true });
    expect(await receiveCredentials({ offerLink: offerLink(), txCode: '000000', batch: 2 })).toHaveLength(2);
    expect(seen.slice(4).map((s) => s.path)).toEqual(['/vci/nonce', '/vci/credential', '/vci/nonce', '/vci/credential']);
    const [first, second] = [seen[5], seen[7]].map((s) => (JSON.parse(s.body) as { proofs: { jwt: string[] } }).proofs.jwt);
    // The same keys, new proofs over the new c_nonce.
    expect(first.map((p) => decodeProtectedHeader(p).jwk)).toEqual(second.map((p) => decodeProtectedHeader(p).jwk));
    expect([...first, ...second].map((p) => decodeJwt(p).nonce)).toEqual([C_NONCE, C_NONCE, 'c-nonce-2', 'c-nonce-2']);
  });

  it('refuses a missing or malformed transaction code before asking, metadata of another issuer, and a credential bound to another key', async () => {
    await expect(receiveCredentials({ offerLink: offerLink() })).rejects.toThrow('the offer asks for a transaction code (--tx-code)');
    await expect(receiveCredentials({ offerLink: offerLink(), txCode: '12ab56' })).rejects.toThrow('numeric');
    await expect(receiveCredentials({ offerLink: offerLink(), txCode: '12345' })).rejects.toThrow('of 6 characters');
    expect(seen.map((s) => s.path)).toEqual(['/vci/offers/1', '/vci/offers/1', '/vci/offers/1']);
    behaviour.metadataIssuer = `${base}/elsewhere`;
    await expect(receiveCredentials({ offerLink: offerLink(), txCode: '123456' })).rejects.toThrow("credential_issuer is not the offer's");
    Object.assign(behaviour, { metadataIssuer: '', wrongKey: true });
    await expect(receiveCredentials({ offerLink: offerLink(), txCode: '123456' })).rejects.toThrow('not bound to a key this wallet asked with');
  });

  it('npm run test-wallet -- receive: stores the batch and prints claim names and the count, never values; bad options are one line', async () => {
    const storePath = join(dir, 'cli.json');
    const run = await runScript('scripts/test-wallet/main.ts', ['receive', offerLink(), '--tx-code', '493536', '--batch', '2', '--store', storePath]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toBe(
      `Received 2 credentials (dc+sd-jwt) from ${issuer}\n  vct ${base}/vct/vdi\n  disclosable claims: document_number, issuing_country, age_equal_or_over, age_equal_or_over.18, age_equal_or_over.21\nStored in ${storePath} (it holds 2 now).\n`,
    );
    expect(run.stdout).not.toContain('X0000000');
    expect(statSync(storePath).mode & 0o777).toBe(0o600);
    const list = await runScript('scripts/test-wallet/main.ts', ['list', '--store', storePath]);
    expect(list.stdout).toMatch(new RegExp(`^${storePath}: 2 credentials\n(  \\S+  ${base}/vct/vdi  from ${issuer}  received \\S+  used 0×\n){2}$`));

    const help = await runScript('scripts/test-wallet/main.ts', ['--help']);
    expect(help.stdout).toMatch(/receive '<offer link or QR text>'[\s\S]*\[present\] '<wallet link>'[\s\S]*list \[--store <file>\]/);
    for (const args of [
      ['receive', offerLink(), '--bogus'],
      ['receive', 'garbage', '--tx-code', '1'],
      ['list', '--batch', '3'],
    ]) {
      const bad = await runScript('scripts/test-wallet/main.ts', args);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/^test-wallet: [^\n]+\n$/);
    }
  });
});
