import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import { runVerification, VerifierApiError, VerifierClient, type Outcome } from '@identity-broker/verifier-sdk';
import { specimenPhone, type SpecimenPhoneOptions } from '../../scripts/test-app/specimen-phone.js';
import { adminClient } from './admin-client.js';
import { type PkceRequest, authorizationRequest, discover, REDIRECT_URI } from './oidc-flow.js';
import { TestBrowser, type Page } from './test-browser.js';

export const FACES = join(import.meta.dirname, '../fixtures/verifier-faces');
export const face = (name: string) => new Uint8Array(readFileSync(join(FACES, name)));

/** A person the phone can show: facing the camera, head turned to their own left and right (PROVENANCE.md). */
export interface Person {
  center: Uint8Array;
  left: Uint8Array;
  right: Uint8Array;
}
/** The genuine holder of the default specimen document (sheldon-document.jpg in DG2). */
export const SHELDON: Person = { center: face('sheldon-center.png'), left: face('sheldon-left.png'), right: face('sheldon-right.png') };
/** Another person, with real turns too. */
export const PENNY: Person = { center: face('penny-center.png'), left: face('penny-left.png'), right: face('penny-right.png') };
/** Howard has no left turn in the set: his "left" is the mirror image of his right turn (the classic still-photo attack). */
export const HOWARD = { center: face('howard-center.png'), right: face('howard-right.png') };

/**
 * A specimen chip from the running server, with Sheldon's photo in DG2 (or `photo`), written as the test app expects it;
 * 'chip-authentication' gives a chip with a DG14 Chip Authentication key (ca-key.der) and no DG15.
 */
export async function specimenDocumentDir(
  baseUrl: string,
  person = 'nor-adult',
  cloneDetection: 'active-authentication' | 'chip-authentication' = 'active-authentication',
  photo: Uint8Array = face('sheldon-document.jpg'),
): Promise<string> {
  const doc = await new VerifierClient(`${baseUrl}/app/v1`).requestSpecimen(photo, person, cloneDetection);
  const dir = mkdtempSync(join(tmpdir(), 'specimen-'));
  writeFileSync(join(dir, 'sod.bin'), Buffer.from(doc.sod, 'base64'));
  for (const [n, b64] of Object.entries(doc.data_groups)) writeFileSync(join(dir, `dg${n}.bin`), Buffer.from(b64, 'base64'));
  if (doc.active_authentication_key) writeFileSync(join(dir, 'aa-key.der'), Buffer.from(doc.active_authentication_key, 'base64'));
  if (doc.chip_authentication_key) writeFileSync(join(dir, 'ca-key.der'), Buffer.from(doc.chip_authentication_key, 'base64'));
  return dir;
}

export interface BrokerFlowResult {
  outcome: Outcome;
  claims: client.IDToken;
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
  waitingPage: Page;
}

/**
 * A merchant login through the document verifier: authorization request, the waiting page with the
 * QR link, the phone side through the SDK, the page's continue step, the code exchange.
 */
export async function verifierLogin(
  baseUrl: string,
  config: client.Configuration,
  phone: Omit<SpecimenPhoneOptions, 'selfie' | 'left' | 'right'> & { person: Person },
  extra: Record<string, string> = {},
  /** An authorization request the test built itself (say a signed request object), instead of one from `extra`. */
  prepared?: PkceRequest,
): Promise<BrokerFlowResult> {
  const req = prepared ?? (await authorizationRequest(config, extra));
  const browser = new TestBrowser(baseUrl);
  const waitingPage = await browser.follow(await browser.get(req.url.toString()));
  const link = /<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(waitingPage.html)?.[1]?.replace(/&amp;/g, '&');
  if (!link) throw new Error(`no app link on the page: ${waitingPage.html.slice(0, 1500)}`);
  const { client: sdk, qrToken } = VerifierClient.fromLink(link);
  const outcome = await runVerification(
    sdk,
    qrToken,
    specimenPhone({ ...phone, selfie: phone.person.center, right: phone.person.right, left: phone.person.left }),
  );
  const done = await browser.follow(await browser.submit(waitingPage, 'action', 'continue'));
  if (!done.location) throw new Error(`expected a redirect to the merchant: ${done.status} ${done.html.slice(0, 800)}`);
  const tokens = await client.authorizationCodeGrant(config, new URL(done.location), {
    pkceCodeVerifier: req.verifier,
    expectedState: req.state,
    expectedNonce: req.nonce,
  });
  return { outcome, claims: tokens.claims()!, tokens, waitingPage };
}

/** The API's refusal of a call that must be refused (fails the test when the call succeeds). */
export async function refused(promise: Promise<unknown>): Promise<VerifierApiError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof VerifierApiError) return e;
    throw e;
  }
  throw new Error('expected the API to refuse');
}

export { REDIRECT_URI };

/**
 * A verification session of `merchant` brought to the face step: the broker page's app link opened by the SDK and
 * Sheldon's specimen chip (`documentDir`) uploaded. `fetchImpl`: the SDK's fetch (to record its answers).
 */
export async function sessionAtFaceStep(baseUrl: string, merchant: client.Configuration, documentDir: string, fetchImpl: typeof fetch = fetch) {
  const browser = new TestBrowser(baseUrl);
  const page = await browser.follow(await browser.get((await authorizationRequest(merchant)).url.toString()));
  const link = /<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(page.html)![1].replace(/&amp;/g, '&');
  const { client: sdk, qrToken } = VerifierClient.fromLink(link, fetchImpl);
  await sdk.open(qrToken);
  const phone = specimenPhone({ documentDir, selfie: SHELDON.center, left: SHELDON.left, right: SHELDON.right });
  const chip = await sdk.uploadChip(await phone.readChip(await sdk.activeAuthChallenge()));
  return { sdk, phone, chip };
}

/** A document-verifier merchant registered on a started service, as a discovered relying party, and a specimen to read. */
export async function verifierMerchant(
  service: { baseUrl: string; adminToken: string },
  name: string,
): Promise<{ merchant: client.Configuration; documentDir: string }> {
  const m = await adminClient(service.baseUrl, service.adminToken).createMerchant({ name, redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
  const merchant = await discover(`${service.baseUrl}/oidc`, m.client_id, m.client_secret);
  return { merchant, documentDir: await specimenDocumentDir(service.baseUrl) };
}
