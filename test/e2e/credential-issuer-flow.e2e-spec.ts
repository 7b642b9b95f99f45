import { mkdtempSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { SDJwtVcInstance, TypeMetadataFormatSchema } from '@sd-jwt/sd-jwt-vc';
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { decodeJwt, decodeProtectedHeader, importX509, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { runVerification, VerifierClient } from '@identity-broker/verifier-sdk';
import { specimenPhone } from '../../scripts/test-app/specimen-phone.js';
import { CredentialStore } from '../../scripts/test-wallet/credential-store.js';
import { receiveCredentials } from '../../scripts/test-wallet/issuance.js';
import { TestWallet } from '../../scripts/test-wallet/wallet.js';
import { WalletTestAuthoritiesService } from '../../src/schemes/eu-wallet/trust/wallet-test-authorities.service.js';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { TestBrowser, type Page } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { SHELDON, specimenDocumentDir } from '../support/verifier-flow.js';
import { refusalShown, walletLinks } from '../support/wallet/wallet-login.js';

const unescape = (s: string) => s.replace(/&amp;/g, '&');
const PERSONAL = [
  'primary_identifier',
  'secondary_identifier',
  'name',
  'birthdate',
  'nationality',
  'issuing_country',
  'document_type',
  'document_number',
  'date_of_expiry',
];
const personal = (claims: Record<string, unknown>) => Object.fromEntries(PERSONAL.filter((k) => k in claims).map((k) => [k, claims[k]]));

/**
 * Verify once, reuse: a document verification at one merchant ends with an offer; the test wallet (which shares no
 * code with the issuer) takes it over OpenID4VCI and signs in at another merchant through the wallet scheme with it,
 * without a chip read; the operator's revocation ends that.
 */
describe('reusable identity, end to end', () => {
  let t: TestApp;
  let bank: client.Configuration;
  let shop: client.Configuration;
  let shopClientId: string;
  let store: CredentialStore;
  let wallet: TestWallet;
  let bankClaims: Record<string, unknown>;
  let offerPage: Page;
  /** Requests the app received for its status lists (every request the HTTP server got, not a mock). */
  let statusListRequests = 0;

  beforeAll(async () => {
    // A long cache in the wallet scheme: its HTTP path would not see the revocation in this test's time.
    t = await startTestApp({ env: { VCI_STATUS_LIST_TTL_SECONDS: '30', WALLET_STATUS_LIST_MAX_CACHE_SECONDS: '300' } });
    (t.app.getHttpServer() as Server).on('request', (req: IncomingMessage) => {
      if (req.url?.startsWith('/vci/status-lists/')) statusListRequests++;
    });
    const admin = adminClient(t.baseUrl, t.adminToken);
    const b = await admin.createMerchant({ name: 'Bank', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'], offer_credential: true });
    bank = await discover(`${t.baseUrl}/oidc`, b.client_id, b.client_secret);
    const s = await admin.createMerchant({ name: 'Shop', redirect_uris: [REDIRECT_URI], eid_schemes: ['eu-wallet'] });
    shopClientId = s.client_id;
    shop = await discover(`${t.baseUrl}/oidc`, s.client_id, s.client_secret);
    store = new CredentialStore(join(mkdtempSync(join(tmpdir(), 'wallet-store-')), 'credentials.json'));
    wallet = new TestWallet((await t.app.get(WalletTestAuthoritiesService).get()).requestSigner.root, [], store);
  }, 60_000);
  afterAll(() => t?.close());

  it("the app's offer endpoint judges its session token as every app step does (through the broker SPI): 401 without one, 404 unknown", async () => {
    const offer = (authorization?: string) =>
      fetch(`${t.baseUrl}/app/v1/session/credential-offer`, { method: 'POST', headers: authorization ? { authorization } : {} });
    expect((await offer()).status).toBe(401);
    expect((await offer(`Bearer ${'x'.repeat(43)}`)).status).toBe(404);
  });

  it('a passed verification at the bank ends with an offer; the wallet takes three credentials; the bank gets its claims', async () => {
    const documentDir = await specimenDocumentDir(t.baseUrl);
    const request = await authorizationRequest(bank, { scope: 'openid profile' });
    const browser = new TestBrowser(t.baseUrl);
    const waiting = await browser.follow(await browser.get(request.url.toString()));
    const { client: sdk, qrToken } = VerifierClient.fromLink(unescape(/<a href="([^"]+)" data-action="open-app"/.exec(waiting.html)![1]));
    const outcome = await runVerification(sdk, qrToken, specimenPhone({ documentDir, selfie: SHELDON.center, left: SHELDON.left, right: SHELDON.right }));
    expect(outcome.authentication_result).toBe('pass');

    offerPage = await browser.submit(waiting, 'action', 'continue');
    expect(offerPage.status).toBe(200);
    const link = unescape(/<a href="([^"]+)" data-action="add-to-wallet"/.exec(offerPage.html)![1]);
    const txCode = /data-tx-code="(\d{6})"/.exec(offerPage.html)![1];
    expect(link).toMatch(/^openid-credential-offer:\/\/\?credential_offer_uri=/);
    expect(offerPage.html).toContain('Continue to Bank');

    const received = await receiveCredentials({ offerLink: link, txCode, batch: 3 });
    expect(received).toHaveLength(3);
    store.add(received);
    // Three keys, three status indexes: nothing in the credentials links the presentations made with them.
    expect(new Set(received.map((c) => JSON.stringify(decodeJwt(c.credential.split('~')[0]).cnf))).size).toBe(3);
    expect(new Set(received.map((c) => JSON.stringify(decodeJwt(c.credential.split('~')[0]).status))).size).toBe(3);

    // The offer was used: the link gives nothing any more.
    await expect(receiveCredentials({ offerLink: link, txCode })).rejects.toThrow();

    const done = await browser.submit(offerPage, 'action', 'continue');
    const tokens = await client.authorizationCodeGrant(bank, new URL(done.location!), {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    bankClaims = tokens.claims()! as Record<string, unknown>;
    expect(bankClaims.authentication_result).toBe('pass');
  }, 240_000);

  it('the credential verifies with @sd-jwt/sd-jwt-vc (not our code), and its type metadata is valid', async () => {
    const credential = store.list()[0].credential;
    const header = decodeProtectedHeader(credential.split('~')[0]);
    expect(header.typ).toBe('dc+sd-jwt');
    const leaf = new X509Certificate(Buffer.from((header.x5c as string[])[0], 'base64'));
    const key = await importX509(leaf.toString(), 'ES256');
    const verifier = new SDJwtVcInstance({
      hasher: async (data, alg) =>
        new Uint8Array(await crypto.subtle.digest(alg.toUpperCase().replace('SHA-', 'SHA-'), typeof data === 'string' ? new TextEncoder().encode(data) : data)),
      verifier: async (data, signature) => {
        const [h, p] = data.split('.');
        return jwtVerify(`${h}.${p}.${signature}`, key).then(
          () => true,
          () => false,
        );
      },
      statusListFetcher: async (uri) => (await fetch(uri)).text(),
      statusValidator: async (status) => {
        if (status !== 0) throw new Error('revoked');
      },
      loadTypeMetadataFormat: true,
      vctFetcher: async (uri) => TypeMetadataFormatSchema.parse(await (await fetch(uri)).json()),
    });
    const verified = await verifier.verify(credential);
    expect(verified.payload.iss).toBe(`${t.baseUrl}/vci`);
    expect(verified.payload.vct).toBe(`${t.baseUrl}/vct/verified-document-identity`);
    expect(verified.payload).toMatchObject({
      issuing_country: expect.any(String),
      document_number: expect.any(String),
      assurance: expect.stringMatching(/^(high|substantial)$/),
    });
    const typeMetadata = TypeMetadataFormatSchema.parse(await (await fetch(verified.payload.vct as string)).json());
    expect(typeMetadata.vct).toBe(verified.payload.vct);
    // The status list the credential points to: a statuslist+jwt the @sd-jwt library reads.
    const statusUri = (verified.payload.status as { status_list: { uri: string } }).status_list.uri;
    const res = await fetch(statusUri);
    expect(res.headers.get('content-type')).toMatch(/^application\/statuslist\+jwt/);
    expect(getListFromStatusListJWT(await res.text()).getStatus((verified.payload.status as { status_list: { idx: number } }).status_list.idx)).toBe(0);
  });

  const shopLogin = async (scope: string) => {
    const request = await authorizationRequest(shop, { scope });
    const browser = new TestBrowser(t.baseUrl);
    let page = await browser.follow(await browser.get(request.url.toString()));
    if (page.html.includes('data-eid="eu-wallet"')) page = await browser.submit(page, 'eid', 'eu-wallet');
    const answer = await wallet.answer(walletLinks(page).crossDevice, { use: 'reused_identity' });
    const done = await browser.submit(page, 'action', 'continue');
    return { answer, done, request };
  };

  it('signs in at the shop with the credential, no chip read: the claims its scopes allow, from a reused credential', async () => {
    const before = statusListRequests;
    const { answer, done, request } = await shopLogin('openid profile');
    expect(answer.status).toBe(200);
    // The credential's status was the issuer's own state, read in process: no request for its status list.
    expect(statusListRequests).toBe(before);
    const claims = (
      await client.authorizationCodeGrant(shop, new URL(done.location!), {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
      })
    ).claims()! as Record<string, unknown>;
    expect(personal(claims)).toEqual(personal(bankClaims));
    expect(claims.authentication_sources).toEqual(['REUSED_CREDENTIAL']);
    expect(claims.verified_at).toBe(new Date().toISOString().slice(0, 10));
    // The same person, the same public subject as at the bank.
    expect(claims.sub).toBe(bankClaims.sub);
    expect(claims).not.toHaveProperty('personal_number');
    // Each presentation took another credential of the batch.
    expect(
      store
        .list()
        .map((c) => c.uses)
        .sort(),
    ).toEqual([0, 0, 1]);
  }, 60_000);

  it("the operator's revocation is seen at the next presentation: the shop's sign-in is refused", async () => {
    const issuances = (await t.dataSource.query('SELECT id FROM credential_issuances WHERE state = $1', ['issued'])) as { id: string }[];
    expect(issuances).toHaveLength(1);
    const revoked = await adminClient(t.baseUrl, t.adminToken).call('POST', `/admin/v1/credential-issuer/issuances/${issuances[0].id}/revoke`, {});
    expect(revoked.status).toBe(200);
    // No wait: the instance that revoked answers the status in process from its current state, no cache between.
    const before = statusListRequests;
    const { answer, done } = await shopLogin('openid');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ check: 'revoked' });
    expect(statusListRequests).toBe(before);
    // The person reads that the credential is revoked; the shop hears nothing until they cancel or choose another way.
    expect(refusalShown(done)).toMatch(/revoked/);
    void shopClientId;
  }, 60_000);
});
