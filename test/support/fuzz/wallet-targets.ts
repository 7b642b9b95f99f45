/**
 * Live EU wallet transactions for the fuzz: each a real sign-in waiting for its wallet (the interaction uid and its
 * cookie, the form's CSRF token, the transaction id of request_uri and response_uri, the request object as a wallet
 * read it), and a test wallet holding customer-test's credentials, whose real presentations the fuzz mutates.
 */
import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { fullDate, issueSdJwtVc, issueTestMdoc, SPECIMEN_PID_CLAIMS } from '@identity-broker/eu-wallet';
import type { RequestView } from '../../../scripts/test-wallet/request-object.js';
import { newHolderKey, TestWallet } from '../../../scripts/test-wallet/wallet.js';
import { WalletTestAuthoritiesService } from '../../../src/schemes/eu-wallet/trust/wallet-test-authorities.service.js';
import { adminClient } from '../admin-client.js';
import { authorizationRequest, discover, REDIRECT_URI } from '../oidc-flow.js';
import type { TestApp } from '../test-app.js';
import { parseForms, TestBrowser } from '../test-browser.js';
import { walletLinks } from '../wallet/wallet-login.js';

export interface WalletTarget {
  /** The interaction of the sign-in, and the Cookie header of its browser. */
  uid: string;
  cookie: string;
  /** The waiting page's CSRF token (its forms post to /its/interaction/:uid/eid/eu-wallet). */
  csrf: string;
  /** The transaction's public id: /wallet/v1/requests/:id and /wallet/v1/responses/:id. */
  id: string;
  /** The request object, read as a wallet reads it (its claims: state, nonce, response_uri, the encryption key). */
  view: RequestView;
}

export async function walletTargets(t: TestApp, count: number): Promise<{ targets: WalletTarget[]; wallet: TestWallet }> {
  const authorities = await t.app.get(WalletTestAuthoritiesService).get();
  const holder = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pidKey = newHolderKey();
  const mdlKey = newHolderKey();
  const wallet = new TestWallet(authorities.requestSigner.root, [
    {
      kind: 'pid_sd_jwt',
      credential: await issueSdJwtVc({
        signer: authorities.pidProvider,
        holderKey: holder.publicKey,
        claims: { ...SPECIMEN_PID_CLAIMS, issuing_country: 'AT' },
      }),
      holderKey: holder.privateKey,
    },
    {
      kind: 'pid_mdoc',
      mdoc: await issueTestMdoc({
        docType: 'eu.europa.ec.eudi.pid.1',
        namespaces: {
          'eu.europa.ec.eudi.pid.1': {
            family_name: 'Mustermann',
            given_name: 'Erika',
            birth_date: fullDate('1964-08-12'),
            nationality: ['DE'],
            age_over_18: true,
            issuing_country: 'DE',
          },
        },
        signer: authorities.pidProvider,
        deviceKey: pidKey.publicJwk,
      }),
      deviceKey: pidKey.privateKey.export({ format: 'jwk' }) as never,
    },
    {
      kind: 'mdl',
      mdoc: await issueTestMdoc({
        docType: 'org.iso.18013.5.1.mDL',
        namespaces: {
          'org.iso.18013.5.1': {
            family_name: 'Svensson',
            given_name: 'Anna',
            birth_date: fullDate('1990-02-03'),
            issuing_country: 'UT',
            document_number: 'UT1234567',
            age_over_18: true,
          },
        },
        signer: authorities.iaca,
        deviceKey: mdlKey.publicJwk,
      }),
      deviceKey: mdlKey.privateKey.export({ format: 'jwk' }) as never,
    },
  ]);
  const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({
    name: 'Fuzz wallet shop',
    redirect_uris: [REDIRECT_URI],
    eid_schemes: ['eu-wallet'],
    scope: 'openid profile ageverify18',
  });
  const merchant = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
  const targets: WalletTarget[] = [];
  for (let i = 0; i < count; i++) {
    const browser = new TestBrowser(t.baseUrl);
    const request = await authorizationRequest(merchant, { scope: i % 2 ? 'openid profile' : 'openid ageverify18' });
    const page = await browser.follow(await browser.get(request.url.toString()));
    const uid = /\/its\/interaction\/([^/?]+)/.exec(page.url)?.[1];
    const requestUri = new URL(new URL(walletLinks(page).crossDevice).searchParams.get('request_uri')!);
    const id = requestUri.pathname.split('/').pop()!;
    // As a wallet does (request_uri_method=post): the signed request, with the key the answer is encrypted to.
    const res = await fetch(requestUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ wallet_nonce: `fuzz-${i}-0123456789` }),
    });
    const jwt = await res.text();
    if (!uid || res.status !== 200) throw new Error(`wallet sign-in ${i}: no interaction (${page.url}) or request object (${res.status} ${jwt.slice(0, 200)})`);
    const view: RequestView = { header: decodeProtectedHeader(jwt) as Record<string, unknown>, claims: decodeJwt(jwt), x5c: [] };
    const csrf =
      parseForms(page.html)
        .map((f) => f.fields._csrf)
        .find(Boolean) ?? '';
    targets.push({ uid, cookie: browser.cookieHeader(page.url), csrf, id, view });
  }
  return { targets, wallet };
}
