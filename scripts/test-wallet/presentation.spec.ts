/**
 * The test wallet presents credentials it received (scripts/test-wallet/wallet.ts with a credential store): the
 * stored credential whose vct the DCQL query accepts, only the asked claims (nested ones too), a key-binding JWT
 * by the stored holder key, and another credential of the batch for each presentation (OpenID4VP 1.0 §6, B.3).
 */
import { createHash, createPrivateKey } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactVerify, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { credentialId, CredentialStore, type StoredCredential } from './credential-store.js';
import type { RequestView } from './request-object.js';
import { TestWallet } from './wallet.js';
import { issueTinySdJwtVc, tinySigner } from '../../test/support/wallet/tiny-sd-jwt-issuer.js';

const ISSUER = 'https://issuer.example/vci';
const VDI = 'https://issuer.example/vct/verified-document-identity';
const PID = 'urn:eudi:pid:1';
const CLAIMS = { document_number: 'X0000000', issuing_country: 'UTO', age_equal_or_over: { '18': true, '21': false } };

const vdiQuery = (claims: (string | null)[][]) => ({
  id: 'vdi',
  format: 'dc+sd-jwt',
  meta: { vct_values: ['https://other.example/vct', VDI] },
  claims: claims.map((path) => ({ path })),
});
const pidQuery = { id: 'pid_sd_jwt', format: 'dc+sd-jwt', meta: { vct_values: [PID] }, claims: [{ path: ['given_name'] }] };

/** What presentations() reads of a request object: the DCQL query, nonce and client_id. */
const requestFor = (dcql_query: unknown): RequestView => ({ header: {}, x5c: [], claims: { client_id: 'x509_hash:verifier', nonce: 'nonce-1', dcql_query } });

/** The disclosures' [name, value] pairs of a presentation, and its KB-JWT checked against `holder`. */
async function read(presentation: string, holder: JWK) {
  const parts = presentation.split('~');
  const kb = parts.pop()!;
  const disclosed = parts.slice(1).map((d) => (JSON.parse(Buffer.from(d, 'base64url').toString()) as unknown[]).slice(1));
  expect(decodeProtectedHeader(kb)).toEqual({ alg: 'ES256', typ: 'kb+jwt' });
  const { payload } = await compactVerify(kb, await importJWK(holder, 'ES256'));
  const sdHash = createHash('sha256')
    .update(`${parts.join('~')}~`)
    .digest('base64url');
  expect(JSON.parse(Buffer.from(payload).toString())).toEqual({ nonce: 'nonce-1', aud: 'x509_hash:verifier', iat: expect.any(Number), sd_hash: sdHash });
  return { issuerJwt: parts[0], disclosed };
}

describe('the test wallet presents received credentials', () => {
  let dir = '';
  let store: CredentialStore;
  let pid: { credential: string; holder: JWK; key: ReturnType<typeof createPrivateKey> };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'test-wallet-'));
    store = new CredentialStore(join(dir, 'store.json'));
    const signer = await tinySigner();
    const entries: StoredCredential[] = [];
    for (let i = 0; i < 3; i++) {
      const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
      const credential = await issueTinySdJwtVc(signer, { iss: ISSUER, vct: VDI, holderJwk: await exportJWK(publicKey), claims: CLAIMS });
      entries.push({
        id: credentialId(credential),
        format: 'dc+sd-jwt',
        vct: VDI,
        credential,
        holderPrivateJwk: await exportJWK(privateKey),
        issuer: ISSUER,
        receivedAt: new Date().toISOString(),
        uses: 0,
      });
    }
    store.add(entries);
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const holder = await exportJWK(publicKey);
    pid = {
      credential: await issueTinySdJwtVc(signer, { iss: 'https://pid.example', vct: PID, holderJwk: holder, claims: { given_name: 'Erika' } }),
      holder,
      key: createPrivateKey({ key: (await exportJWK(privateKey)) as never, format: 'jwk' }),
    };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const holderOf = (issuerJwt: string) => (decodeJwt(issuerJwt).cnf as { jwk: JWK }).jwk;

  it('answers a query for its vct with exactly the asked claims, nested ones too, and a different credential each time', async () => {
    const wallet = new TestWallet(Buffer.alloc(0), [], store);
    // The first option asks for a PID the wallet does not hold: it answers the second.
    const dcql = {
      credentials: [pidQuery, vdiQuery([['age_equal_or_over', '18'], ['issuing_country'], ['vct']])],
      credential_sets: [{ options: [['pid_sd_jwt'], ['vdi']] }],
    };
    const issuerJwts: string[] = [];
    for (let i = 0; i < 4; i++) {
      const vpToken = await wallet.presentations(requestFor(dcql));
      expect(Object.keys(vpToken)).toEqual(['vdi']);
      const { issuerJwt, disclosed } = await read(vpToken.vdi[0], holderOf(vpToken.vdi[0].split('~')[0]));
      issuerJwts.push(issuerJwt);
      // The parent object's disclosure (digests only) comes with '18'; neither '21' nor the document number.
      expect(disclosed.map(([name]) => name).sort()).toEqual(['18', 'age_equal_or_over', 'issuing_country']);
      expect(disclosed.find(([name]) => name === '18')).toEqual(['18', true]);
      expect(disclosed.find(([name]) => name === 'age_equal_or_over')![1]).toEqual({ _sd: [expect.any(String), expect.any(String)] });
    }
    expect(new Set(issuerJwts.slice(0, 3)).size).toBe(3);
    expect(issuerJwts[3]).toBe(issuerJwts[0]);
    expect(store.list().map((c) => c.uses)).toEqual([2, 1, 1]);
  });

  it('prefers an option the store answers (the service’s own credential) to an earlier one of the built-in PID; else the first it can satisfy', async () => {
    const wallet = new TestWallet(Buffer.alloc(0), [{ kind: 'pid_sd_jwt', credential: pid.credential, holderKey: pid.key }], store);
    const both = (options: string[][], vdiClaims: (string | null)[][]) => ({ credentials: [pidQuery, vdiQuery(vdiClaims)], credential_sets: [{ options }] });
    // As the wallet scheme asks (the PID's option first, the service's own credential's last): the stored one answers.
    const asked = requestFor(both([['pid_sd_jwt'], ['vdi']], [['issuing_country']]));
    expect(wallet.plan(asked).map(({ query, held }) => [query.id, held.kind])).toEqual([['vdi', 'stored']]);
    expect(Object.keys(await wallet.presentations(asked))).toEqual(['vdi']);
    expect(Object.keys(await wallet.presentations(requestFor(both([['vdi'], ['pid_sd_jwt']], [['issuing_country']]))))).toEqual(['vdi']);
    // Without a store the same request is answered with the built-in PID.
    expect(Object.keys(await new TestWallet(Buffer.alloc(0), wallet.held).presentations(asked))).toEqual(['pid_sd_jwt']);
    // --use picks the built-in PID all the same.
    expect(Object.keys(await wallet.presentations(asked, 'pid_sd_jwt'))).toEqual(['pid_sd_jwt']);
    // A claim the stored credential lacks: that option cannot be satisfied, the next is answered.
    expect(Object.keys(await wallet.presentations(requestFor(both([['vdi'], ['pid_sd_jwt']], [['nationality']]))))).toEqual(['pid_sd_jwt']);
    const pair = await wallet.presentations(requestFor(both([['vdi', 'pid_sd_jwt']], [['document_number']])));
    expect(Object.keys(pair).sort()).toEqual(['pid_sd_jwt', 'vdi']);
    expect((await read(pair.pid_sd_jwt[0], pid.holder)).disclosed).toEqual([['given_name', 'Erika']]);
    // --use names the query; an optional set is left unanswered.
    expect(Object.keys(await wallet.presentations(requestFor(both([['vdi'], ['pid_sd_jwt']], [['issuing_country']])), 'pid_sd_jwt'))).toEqual(['pid_sd_jwt']);
    const optional = {
      credentials: [pidQuery, vdiQuery([['issuing_country']])],
      credential_sets: [{ options: [['pid_sd_jwt']] }, { options: [['vdi']], required: false }],
    };
    expect(Object.keys(await wallet.presentations(requestFor(optional)))).toEqual(['pid_sd_jwt']);
    await expect(wallet.presentations(requestFor({ credentials: [vdiQuery([['nationality']])] }))).rejects.toThrow('holds nothing the request asks for');
  });
});
