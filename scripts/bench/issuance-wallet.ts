/**
 * The wallet's side of bench-issuance: for one read offer, the token request with a DPoP proof (OpenID4VCI 1.0 §6,
 * RFC 9449 §5), a c_nonce (§7), and the credential request with `proofsPerRequest` ES256 key proofs of distinct
 * keys (§8.2), with `concurrency` wallets at once. Keys are made before the clock starts; proofs are signed in the
 * flow (the nonce and the access token exist only then), by this process, not the service.
 */
import { createHash } from 'node:crypto';
import { dpopProof, keyProof, testKey, type TestKey } from '../../test/support/credential-issuer.js';
import type { ReadOffer } from './issuance-offers.js';

const PRE_AUTHORIZED_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
const ath = (token: string) => createHash('sha256').update(token, 'ascii').digest('base64url');

/** One wallet's keys: the DPoP key and one holder key per proof. */
export interface WalletKeys {
  dpop: TestKey;
  holders: TestKey[];
}

export async function walletKeys(wallets: number, proofsPerRequest: number): Promise<WalletKeys[]> {
  const keys: WalletKeys[] = [];
  for (let i = 0; i < wallets; i++) keys.push({ dpop: await testKey(), holders: await Promise.all(Array.from({ length: proofsPerRequest }, () => testKey())) });
  return keys;
}

async function answer<T>(res: Response, step: string): Promise<T> {
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${step} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** The whole exchange of one offer; answers the credentials issued. */
export async function takeCredentials(base: string, offer: ReadOffer, keys: WalletKeys): Promise<string[]> {
  const issuer = `${base}/vci`;
  const token = await answer<{ access_token: string }>(
    await fetch(`${base}/vci/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await dpopProof(keys.dpop, 'POST', `${base}/vci/token`) },
      body: new URLSearchParams({ grant_type: PRE_AUTHORIZED_CODE_GRANT, 'pre-authorized_code': offer.preAuthorizedCode, tx_code: offer.txCode }),
    }),
    'the token endpoint',
  );
  const { c_nonce: nonce } = await answer<{ c_nonce: string }>(await fetch(`${base}/vci/nonce`, { method: 'POST' }), 'the nonce endpoint');
  const jwt = await Promise.all(keys.holders.map((holder) => keyProof(holder, issuer, nonce)));
  const issued = await answer<{ credentials: { credential: string }[] }>(
    await fetch(`${base}/vci/credential`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `DPoP ${token.access_token}`,
        dpop: await dpopProof(keys.dpop, 'POST', `${base}/vci/credential`, { ath: ath(token.access_token) }),
      },
      body: JSON.stringify({ credential_configuration_id: 'verified_document_identity', proofs: { jwt } }),
    }),
    'the credential endpoint',
  );
  if (issued.credentials.length !== keys.holders.length) throw new Error(`asked ${keys.holders.length} credentials, got ${issued.credentials.length}`);
  return issued.credentials.map((c) => c.credential);
}

/** Runs every offer through `concurrency` wallets; answers each exchange's latency (ms) and the credentials. */
export async function runWallets(
  base: string,
  offers: ReadOffer[],
  keys: WalletKeys[],
  concurrency: number,
): Promise<{ latencies: number[]; seconds: number; credentials: string[] }> {
  const latencies: number[] = [];
  const credentials: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < offers.length) {
        const i = next++;
        const t0 = performance.now();
        credentials.push(...(await takeCredentials(base, offers[i], keys[i])));
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000, credentials };
}
