/**
 * Live values of the credential issuer for the fuzz, each made the way a wallet or a person gets it: an offer not yet
 * taken (its handle, pre-authorized code, transaction code and revocation handle), DPoP-bound access tokens not yet
 * spent (and their keys), an issuance whose credential was received (its status list, issuance and record ids), a
 * revocation page's cookie and CSRF token, an authorization code of the authorization code flow (with its verifier)
 * and one sign-in still pending, and fresh c_nonces.
 */
import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { receiveCredentials } from '../../../scripts/test-wallet/issuance.js';
import { CredentialAuthorizationsService } from '../../../src/credential-issuer/authorization/credential-authorizations.service.js';
import { CredentialIssuanceEntity } from '../../../src/credential-issuer/issuances/credential-issuance.entity.js';
import { PRE_AUTHORIZED_CODE_GRANT } from '../../../src/credential-issuer/token/token.controller.js';
import { dpopProof, offerFor, testKey, type TestKey } from '../credential-issuer.js';
import type { TestApp } from '../test-app.js';

export const FUZZ_WALLET_CLIENT = { client_id: 'fuzz-wallet', redirect_uris: ['https://wallet.example/callback'] };

export interface LiveOffer {
  handle: string;
  preAuthorizedCode: string;
  txCode: string;
  revocationHandle: string;
  recordId: string;
}

export interface IssuerTargets {
  /** Offered, not taken. */
  offer: LiveOffer;
  /** Redeemed at the token endpoint: their codes are spent, their access tokens (DPoP-bound to `key`) not yet. */
  redeemed: (LiveOffer & { accessToken: string; key: TestKey })[];
  /** Taken by a wallet: a credential was issued. */
  issued: LiveOffer & { issuanceId: string; statusListId: string };
  /** The revocation page of another live offer, as the person's browser holds it (cookie and form token). */
  revocationPage: { handle: string; cookie: string; csrf: string };
  /** The authorization code flow: a code issued to FUZZ_WALLET_CLIENT with its PKCE verifier, and a sign-in still pending. */
  authorization: { code: string; verifier: string; pendingId: string };
  nonces: string[];
}

async function liveOffer(t: TestApp): Promise<LiveOffer & { link: string }> {
  const { recordId, offer, offerUri } = await offerFor(t);
  const handle = offerUri.split('/').pop()!;
  const object = (await (await fetch(offerUri)).json()) as { grants: Record<string, { 'pre-authorized_code': string }> };
  return {
    link: offer.link,
    handle,
    preAuthorizedCode: object.grants[PRE_AUTHORIZED_CODE_GRANT]['pre-authorized_code'],
    txCode: offer.txCode,
    revocationHandle: offer.revokeUrl.split('/').pop()!,
    recordId,
  };
}

export async function issuerTargets(t: TestApp, redeemedTokens: number): Promise<IssuerTargets> {
  const tokenUrl = `${t.baseUrl}/vci/token`;

  const { link, ...issuedOffer } = await liveOffer(t);
  const [received] = await receiveCredentials({ offerLink: link, txCode: issuedOffer.txCode });
  const statusUri = (decodeJwt(received.credential.split('~')[0]).status as { status_list: { uri: string } }).status_list.uri;
  const issuance = await t.dataSource.getRepository(CredentialIssuanceEntity).findOneByOrFail({ recordId: issuedOffer.recordId });

  // Several: an issuance spends its token, and each token gets one.
  const redeemed = [];
  for (let i = 0; i < redeemedTokens; i++) {
    const { link: _redeemedLink, ...redeemedOffer } = await liveOffer(t);
    const key = await testKey();
    const token = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await dpopProof(key, 'POST', tokenUrl) },
      body: new URLSearchParams({
        grant_type: PRE_AUTHORIZED_CODE_GRANT,
        'pre-authorized_code': redeemedOffer.preAuthorizedCode,
        tx_code: redeemedOffer.txCode,
      }),
    });
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    if (!accessToken) throw new Error(`the token endpoint answered ${token.status}`);
    redeemed.push({ ...redeemedOffer, accessToken, key });
  }

  const { link: _offerLink, ...offer } = await liveOffer(t);

  const { revocationHandle } = await liveOffer(t);
  const page = await fetch(`${t.baseUrl}/vci/revoke/${revocationHandle}`);
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';

  const authorizations = t.app.get(CredentialAuthorizationsService);
  const verifier = randomBytes(32).toString('base64url');
  const request = {
    clientId: FUZZ_WALLET_CLIENT.client_id,
    redirectUri: FUZZ_WALLET_CLIENT.redirect_uris[0],
    codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
    state: 'fuzz',
  };
  const code = (await authorizations.authorize(await authorizations.begin(request), issuedOffer.recordId))?.code;
  if (!code) throw new Error('no authorization code');
  const pendingId = await authorizations.begin(request);

  const nonces = await Promise.all(
    Array.from({ length: 16 }, async () => ((await (await fetch(`${t.baseUrl}/vci/nonce`, { method: 'POST' })).json()) as { c_nonce: string }).c_nonce),
  );

  return {
    offer,
    redeemed,
    issued: { ...issuedOffer, issuanceId: issuance.id, statusListId: statusUri.split('/').pop()! },
    revocationPage: { handle: revocationHandle, cookie, csrf },
    authorization: { code, verifier, pendingId },
    nonces,
  };
}
