/** `test-wallet receive`: takes a credential offer, receives the credentials, keeps them in the store, says what it kept. */
import { CredentialStore, defaultStorePath, type StoredCredential } from './credential-store.js';
import { receiveCredentials } from './issuance.js';
import { disclosablePaths } from './sd-jwt-paths.js';

export const RECEIVE_OPTIONS = {
  'tx-code': { type: 'string' },
  batch: { type: 'string' },
  configuration: { type: 'string' },
  store: { type: 'string' },
} as const;

/** Claim names as paths, array positions folded (`nationalities[]`): what a credential can show, never its values. */
export function claimNames(credential: string): string[] {
  return [...new Set([...disclosablePaths(credential).keys()].map((p) => p.replace(/^\$\./, '').replace(/\[\d+\]/g, '[]')))];
}

export async function runReceive(positionals: string[], values: { 'tx-code'?: string; batch?: string; configuration?: string; store?: string }): Promise<void> {
  const offerLink = positionals[0];
  if (!offerLink || positionals.length > 1)
    throw new Error("usage: npm run test-wallet -- receive '<offer link or QR text>' [--tx-code 123456] [--batch 3] [--store file]");
  if (values.batch !== undefined && !/^[1-9][0-9]{0,2}$/.test(values.batch)) throw new Error('--batch: a number from 1 to 999');
  const store = new CredentialStore(values.store ?? defaultStorePath());
  const received: StoredCredential[] = await receiveCredentials({
    offerLink,
    txCode: values['tx-code'],
    batch: values.batch === undefined ? undefined : Number(values.batch),
    credentialConfigurationId: values.configuration,
  });
  keepAndTell(store, received);
}

/** Adds the credentials to the store and says what came: count, issuer, vct, claim names (never values). */
export function keepAndTell(store: CredentialStore, received: StoredCredential[]): void {
  store.add(received);
  const first = received[0];
  console.log(`Received ${received.length} credential${received.length === 1 ? '' : 's'} (dc+sd-jwt) from ${first.issuer}`);
  console.log(`  vct ${first.vct}`);
  console.log(`  disclosable claims: ${claimNames(first.credential).join(', ') || '(none)'}`);
  console.log(`Stored in ${store.path} (it holds ${store.list().length} now).`);
}

export function runList(values: { store?: string }): void {
  const store = new CredentialStore(values.store ?? defaultStorePath());
  const held = store.list();
  console.log(`${store.path}: ${held.length} credential${held.length === 1 ? '' : 's'}`);
  for (const c of held) console.log(`  ${c.id}  ${c.vct}  from ${c.issuer}  received ${c.receivedAt}  used ${c.uses}×`);
}
