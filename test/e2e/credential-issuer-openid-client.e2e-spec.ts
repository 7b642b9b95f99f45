import { decodeJwt } from 'jose';
import * as client from 'openid-client';
import { runVerification, VerifierClient } from '@identity-broker/verifier-sdk';
import { specimenPhone } from '../../scripts/test-app/specimen-phone.js';
import { keyProof, offerFor, testKey } from '../support/credential-issuer.js';
import { TestBrowser } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { SHELDON, specimenDocumentDir } from '../support/verifier-flow.js';

const PRE_AUTH = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
const REDIRECT = 'https://wallet.example/callback';

/**
 * The issuer's authorization server against a peer nobody here wrote: openid-client (panva) as the wallet's OAuth
 * client. It finds the server by RFC 8414 (the well-known segment inserted before the path), makes and binds DPoP
 * proofs (RFC 9449) itself, checks the authorization response's iss (RFC 9207) and state, and sends PKCE.
 */
describe("credential issuer: openid-client as the wallet's OAuth client", () => {
  let t: TestApp;
  let issuer: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { VCI_WALLET_CLIENTS: JSON.stringify([{ client_id: 'peer-wallet', redirect_uris: [REDIRECT] }]) } });
    issuer = `${t.baseUrl}/vci`;
  }, 60_000);
  afterAll(() => t?.close());

  const discover = () =>
    client.discovery(new URL(issuer), 'peer-wallet', undefined, client.None(), { algorithm: 'oauth2', execute: [client.allowInsecureRequests] });

  /** The credential request through openid-client's DPoP-bound resource call (it adds ath and the DPoP header). */
  const credentialWith = async (config: client.Configuration, dpop: client.DPoPHandle, accessToken: string) => {
    const { c_nonce: nonce } = (await (await fetch(`${issuer}/nonce`, { method: 'POST' })).json()) as { c_nonce: string };
    const body = JSON.stringify({
      credential_configuration_id: 'verified_document_identity',
      proofs: { jwt: [await keyProof(await testKey(), issuer, nonce)] },
    });
    return client.fetchProtectedResource(
      config,
      accessToken,
      new URL(`${issuer}/credential`),
      'POST',
      body,
      new Headers({ 'content-type': 'application/json' }),
      { DPoP: dpop },
    );
  };

  it('discovers the server, redeems a pre-authorized code with a DPoP-bound token, and gets the credential', async () => {
    const config = await discover();
    expect(config.serverMetadata()).toMatchObject({ issuer, token_endpoint: `${issuer}/token` });
    const { offer } = await offerFor(t);
    const offerObject = (await (await fetch(decodeURIComponent(offer.link.split('credential_offer_uri=')[1]))).json()) as {
      grants: Record<string, Record<string, string>>;
    };
    const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    const tokens = await client.genericGrantRequest(
      config,
      PRE_AUTH,
      { 'pre-authorized_code': offerObject.grants[PRE_AUTH]['pre-authorized_code'], tx_code: offer.txCode },
      { DPoP: dpop },
    );
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
    const res = await credentialWith(config, dpop, tokens.access_token);
    expect(res.status).toBe(200);
    const [{ credential }] = ((await res.json()) as { credentials: { credential: string }[] }).credentials;
    expect(decodeJwt(credential.split('~')[0]).iss).toBe(issuer);
    // The same token under another DPoP key (a copied token): refused with a DPoP challenge openid-client reads.
    const thief = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    const refused = await credentialWith(config, thief, tokens.access_token).then(
      () => undefined,
      (err: unknown) => err as { cause?: { scheme: string; parameters: Record<string, string> }[] },
    );
    expect(refused?.cause?.[0]).toMatchObject({ scheme: 'dpop', parameters: { error: 'invalid_token' } });
  });

  it('runs the authorization code flow: PKCE, state and iss checked by openid-client, then the credential', async () => {
    const config = await discover();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      authorization_details: JSON.stringify([{ type: 'openid_credential', credential_configuration_id: 'verified_document_identity' }]),
    });
    const browser = new TestBrowser(t.baseUrl);
    const waiting = await browser.follow(await browser.get(url.toString()));
    const { client: sdk, qrToken } = VerifierClient.fromLink(/<a href="([^"]+)" data-action="open-app"/.exec(waiting.html)![1].replace(/&amp;/g, '&'));
    const documentDir = await specimenDocumentDir(t.baseUrl);
    expect(
      (await runVerification(sdk, qrToken, specimenPhone({ documentDir, selfie: SHELDON.center, left: SHELDON.left, right: SHELDON.right })))
        .authentication_result,
    ).toBe('pass');
    const back = new URL((await browser.submit(waiting, 'action', 'continue')).location!);
    const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    const tokens = await client.authorizationCodeGrant(
      config,
      back,
      { pkceCodeVerifier: verifier, expectedState: state },
      { redirect_uri: REDIRECT },
      { DPoP: dpop },
    );
    expect((await credentialWith(config, dpop, tokens.access_token)).status).toBe(200);
  }, 120_000);
});
