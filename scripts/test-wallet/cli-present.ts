/**
 * `test-wallet present` (the default): takes the link of the broker's waiting page, reads the signed request, shows
 * who asks for what, and answers with only the asked claims, from the service's test credentials and, with
 * --store, from the credentials received over OpenID4VCI (a different one of a batch each time).
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { CredentialStore } from './credential-store.js';
import { walletFromService } from './issuer-client.js';
import { TestWallet } from './wallet.js';

export const PRESENT_OPTIONS = {
  use: { type: 'string' },
  yes: { type: 'boolean', default: false },
  decline: { type: 'boolean', default: false },
  store: { type: 'string' },
  'request-signer-root': { type: 'string' },
} as const;

interface PresentValues {
  use?: string;
  yes: boolean;
  decline: boolean;
  store?: string;
  'request-signer-root'?: string;
}

const USAGE =
  "usage: npm run test-wallet -- [present] '<wallet link>' [--use <credential query id>] [--yes] [--decline] [--store file] [--request-signer-root file]";

/** A certificate file, PEM or DER. */
function readCertificate(path: string): Buffer {
  return new X509Certificate(readFileSync(path)).raw;
}

export async function runPresent(positionals: string[], values: PresentValues): Promise<void> {
  const link = positionals[0];
  if (!link || positionals.length > 1 || !URL.canParse(link)) throw new Error(USAGE);
  const requestUri = new URL(link).searchParams.get('request_uri');
  if (!requestUri || !URL.canParse(requestUri)) throw new Error('the link carries no request_uri');
  const store = values.store === undefined ? undefined : new CredentialStore(values.store);
  // With a root of its own the wallet needs no test issuer: it holds only what the store holds.
  const root = values['request-signer-root'];
  const wallet = root ? new TestWallet(readCertificate(root), [], store) : await walletFromService(new URL(requestUri).origin, store);
  const request = await wallet.read(link);
  const signer = new X509Certificate(request.x5c[0]).subject.replace(/\n/g, ', ');
  const plan = wallet.plan(request, values.use);
  console.log(`Request from ${signer}\n  client_id ${request.claims.client_id}`);
  const accepted = (request.claims.dcql_query.credentials as { id: string }[]).map((c) => c.id).join(', ');
  console.log(`It accepts: ${accepted}; this wallet answers with ${plan.map((p) => p.query.id).join(' and ')}:`);
  for (const { query, held } of plan) {
    if (plan.length > 1) console.log(` ${query.id}:`);
    if (held.kind === 'stored') console.log(`  (a received credential of ${held.stored.vct}, used ${held.stored.uses}× before)`);
    for (const claim of query.claims ?? []) console.log(`  - ${claim.path.map((p) => (p === null ? '*' : String(p))).join(' / ')}`);
  }
  if (values.decline) {
    const answer = await wallet.post(request, { error: 'access_denied', state: request.claims.state });
    console.log(`Declined: the service answered ${answer.status}.`);
    return;
  }
  if (!values.yes) {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    const yes = /^y(es)?$/i.test((await rl.question('Share these claims? [y/N] ')).trim());
    rl.close();
    if (!yes) return void console.log('Nothing shared.');
  }
  const answer = await wallet.answer(link, { use: values.use });
  if (answer.status !== 200) throw new Error(`the service refused the answer (${answer.status}): ${JSON.stringify(answer.body)}`);
  const redirect = answer.body.redirect_uri;
  console.log(
    typeof redirect === 'string'
      ? `Shared. Open this in the browser that started the sign-in:\n  ${redirect}`
      : 'Shared. The waiting page continues by itself.',
  );
}
