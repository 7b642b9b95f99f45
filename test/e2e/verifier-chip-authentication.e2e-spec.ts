import { createECDH } from 'node:crypto';
import * as client from 'openid-client';
import { deriveKey, parseDg14, SecureMessaging, answerChipAuthentication, issueSpecimenDocument, type SpecimenDocument } from '@identity-broker/icao9303';
import { VerifierClient } from '@identity-broker/verifier-sdk';
import { SpecimenAuthorityService } from '../../src/schemes/document-verifier/specimen/specimen-authority.service.js';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { TestBrowser } from '../support/test-browser.js';
import { face, REDIRECT_URI, SHELDON, specimenDocumentDir, verifierLogin } from '../support/verifier-flow.js';

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
const unb64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));

/**
 * Chip Authentication with the server as the terminal (ICAO 9303-11 §6.2): the app relays the server's
 * ephemeral key and protected command, and only a chip holding the DG14 private key answers with a valid MAC.
 */
describe('document verifier chip authentication', () => {
  let t: TestApp;
  let config: client.Configuration;
  let doc: SpecimenDocument;

  beforeAll(async () => {
    t = await startTestApp();
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'CA', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    doc = await issueSpecimenDocument(await t.app.get(SpecimenAuthorityService).get(), {
      faceImage: face('sheldon-document.jpg'),
      activeAuthentication: false,
      chipAuthentication: true,
    });
  });
  afterAll(() => t?.close());

  /** An opened app session: the page's QR link, exchanged for the session token. */
  async function appSession() {
    const browser = new TestBrowser(t.baseUrl);
    const page = await browser.follow(await browser.get((await authorizationRequest(config)).url.toString()));
    const link = /<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(page.html)![1].replace(/&amp;/g, '&');
    const { client: sdk, qrToken } = VerifierClient.fromLink(link);
    const { session_token } = await sdk.open(qrToken);
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${t.baseUrl}/app/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session_token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    return { sdk, post };
  }
  const chipBody = (d: SpecimenDocument, chipAuthentication?: Record<string, unknown>) => ({
    sod: b64(d.sod),
    data_groups: Object.fromEntries([...d.dataGroups].map(([n, bytes]) => [String(n), b64(bytes)])),
    ...(chipAuthentication ? { chip_authentication: chipAuthentication } : {}),
  });
  /** The genuine specimen chip answers the server's challenge. */
  const chipAnswer = (d: SpecimenDocument, ca: Record<string, any>) =>
    answerChipAuthentication(d.chipAuthKey!, unb64(ca.terminal_public_key), unb64(ca.protected_command));

  it('passes a chip with a DG14 Chip Authentication key and no DG15 through the CA challenge, with eIDAS high and hwk', async () => {
    const dir = await specimenDocumentDir(t.baseUrl, 'nor-adult', 'chip-authentication');
    const { outcome, claims } = await verifierLogin(
      t.baseUrl,
      config,
      { documentDir: dir, person: SHELDON },
      { scope: 'openid profile', acr_values: 'urn:svc:acrp:level:high' },
    );
    expect(outcome.authentication_result).toBe('pass');
    expect(claims.acr).toBe('urn:svc:cert:eidas:high');
    expect(claims.amr).toEqual(['sc', 'hwk', 'face']);
  }, 240_000);

  it('answers the challenge as the terminal: a public key on the DG14 curve, a protected command, no secret', async () => {
    const { post } = await appSession();
    const ca = await post('/session/ca-challenge', { dg14: b64(doc.dataGroups.get(14)!) });
    expect(ca.status).toBe(200);
    expect(Object.keys(ca.body).sort()).toEqual(['protected_command', 'terminal_public_key']);
    expect(unb64(ca.body.terminal_public_key)).toHaveLength(65); // uncompressed P-256 point
    expect(unb64(ca.body.protected_command)[0]).toBe(0x0c);
    const bad = await post('/session/ca-challenge', { dg14: b64(new Uint8Array([0x6e, 0x02, 0x31, 0x00])) });
    expect(bad.status).toBe(422);
    expect((await post('/session/chip', chipBody(doc, { response_apdu: b64(chipAnswer(doc, ca.body)) }))).body.next).toBe('face');
  });

  it('refuses the old evidence: an app-supplied terminal private key is a 400 naming the field', async () => {
    const { sdk, post } = await appSession();
    // The old attack: a terminal key of the attacker's choosing and an answer MAC'd under the keys derived from it.
    const chipKey = parseDg14(doc.dataGroups.get(14)!).chipAuthenticationPublicKeys[0].publicKey;
    const attacker = createECDH('prime256v1');
    attacker.generateKeys();
    const z = new Uint8Array(attacker.computeSecret(Buffer.from(chipKey.publicKeyBytes)));
    const ssc = Uint8Array.from({ length: 16 }, (_, i) => (i === 15 ? 1 : 0));
    const forged = new SecureMessaging('AES-128', deriveKey(z, 1, 'AES-128'), deriveKey(z, 2, 'AES-128'), ssc).protectResponse(new Uint8Array(0), 0x9000);
    const after = Uint8Array.from({ length: 16 }, (_, i) => (i === 15 ? 2 : 0));
    const old = await post(
      '/session/chip',
      chipBody(doc, { terminal_private_key: b64(attacker.getPrivateKey()), response_apdu: b64(forged), ssc: b64(after) }),
    );
    expect(old.status).toBe(400);
    expect(old.body.error_description).toContain('terminal_private_key is no longer accepted');

    // The same forged answer against the server's own challenge: the MAC does not verify.
    await post('/session/ca-challenge', { dg14: b64(doc.dataGroups.get(14)!) });
    const chip = await post('/session/chip', chipBody(doc, { response_apdu: b64(forged) }));
    expect(chip).toMatchObject({ status: 200, body: { next: 'outcome' } });
    expect((await sdk.outcome()).result_explanation).toContain('STATUS_BAD_CLONEDETECTION');
  });

  it('fails clone detection for a forged answer to the server challenge, and for a phone that skips CA', async () => {
    const { sdk, post } = await appSession();
    const ca = await post('/session/ca-challenge', { dg14: b64(doc.dataGroups.get(14)!) });
    // A clone that knows DG14 and the terminal key but not the chip key: its own key pair instead.
    const clone = {
      ...doc,
      chipAuthKey: {
        ...doc.chipAuthKey!,
        privateKey: (await issueSpecimenDocument(doc.authority, { activeAuthentication: false, chipAuthentication: true })).chipAuthKey!.privateKey,
      },
    };
    expect((await post('/session/chip', chipBody(doc, { response_apdu: b64(chipAnswer(clone, ca.body)) }))).body.next).toBe('outcome');
    expect((await sdk.outcome()).result_explanation).toContain('STATUS_BAD_CLONEDETECTION');

    const skip = await appSession();
    expect((await skip.post('/session/chip', chipBody(doc))).body.next).toBe('outcome');
    expect((await skip.sdk.outcome()).result_explanation).toContain('STATUS_BAD_CLONEDETECTION');
  });

  it('spends the challenge: no CA answer without a challenge, no second chip step, no replay in another session', async () => {
    const first = await appSession();
    const none = await first.post('/session/chip', chipBody(doc, { response_apdu: b64(new Uint8Array([0x90, 0x00])) }));
    expect(none).toMatchObject({ status: 409, body: { error: 'challenge_missing' } });
    const ca = await first.post('/session/ca-challenge', { dg14: b64(doc.dataGroups.get(14)!) });
    const answer = b64(chipAnswer(doc, ca.body));
    expect((await first.post('/session/chip', chipBody(doc, { response_apdu: answer }))).body.next).toBe('face');
    expect((await first.post('/session/chip', chipBody(doc, { response_apdu: answer }))).status).toBe(409);
    expect((await first.post('/session/ca-challenge', { dg14: b64(doc.dataGroups.get(14)!) })).status).toBe(409);

    const second = await appSession();
    await second.post('/session/ca-challenge', { dg14: b64(doc.dataGroups.get(14)!) });
    expect((await second.post('/session/chip', chipBody(doc, { response_apdu: answer }))).body.next).toBe('outcome');
    expect((await second.sdk.outcome()).result_explanation).toContain('STATUS_BAD_CLONEDETECTION');
  });

  it("requires the chip step's DG14 to be the challenge's", async () => {
    const other = await issueSpecimenDocument(doc.authority, {
      faceImage: face('sheldon-document.jpg'),
      activeAuthentication: false,
      chipAuthentication: true,
    });
    // The challenge is made for another chip's DG14 (which that chip answers), the upload is this document's.
    const { sdk, post } = await appSession();
    const ca = await post('/session/ca-challenge', { dg14: b64(other.dataGroups.get(14)!) });
    expect((await post('/session/chip', chipBody(doc, { response_apdu: b64(chipAnswer(other, ca.body)) }))).body.next).toBe('outcome');
    expect((await sdk.outcome()).result_explanation).toContain('STATUS_BAD_CLONEDETECTION');
  });
});
