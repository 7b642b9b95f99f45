/**
 * The test wallet: plays an EU Digital Identity Wallet against a customer-test service.
 *
 *   npm run test-wallet -- '<wallet link>' [--use pid_sd_jwt|pid_mdoc|mdl] [--yes] [--decline]
 *       takes the link of the broker's waiting page (the "Open wallet" button's, or the QR code's content), gets a
 *       test PID (SD-JWT VC and mdoc) and a test mDL from the service's test issuer, bound to keys of its own, reads
 *       the signed request (checking its signer against the service's relying-party root), shows who asks for what,
 *       and, once confirmed (or with --yes), answers with only the asked claims of the chosen credential; with
 *       --decline it answers access_denied. Prints where the browser goes next.
 */
import { X509Certificate } from 'node:crypto';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { walletFromService } from './issuer-client.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { use: { type: 'string' }, yes: { type: 'boolean', default: false }, decline: { type: 'boolean', default: false } },
});

async function main(): Promise<void> {
  const link = positionals[0];
  if (!link || !URL.canParse(link)) throw new Error("usage: npm run test-wallet -- '<wallet link>' [--use pid_sd_jwt|pid_mdoc|mdl] [--yes] [--decline]");
  const requestUri = new URL(link).searchParams.get('request_uri');
  if (!requestUri || !URL.canParse(requestUri)) throw new Error('the link carries no request_uri');
  const wallet = await walletFromService(new URL(requestUri).origin);
  const request = await wallet.read(link);
  const signer = new X509Certificate(request.x5c[0]).subject.replace(/\n/g, ', ');
  const { query } = wallet.choose(request, values.use);
  console.log(`Request from ${signer}\n  client_id ${request.claims.client_id}`);
  console.log(`It accepts: ${(request.claims.dcql_query.credentials as { id: string }[]).map((c) => c.id).join(', ')}; this wallet answers with ${query.id}:`);
  for (const claim of query.claims ?? []) console.log(`  - ${claim.path.map((p) => (p === null ? '*' : String(p))).join(' / ')}`);
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
  const answer = await wallet.answer(link, { use: query.id });
  if (answer.status !== 200) throw new Error(`the service refused the answer (${answer.status}): ${JSON.stringify(answer.body)}`);
  const redirect = answer.body.redirect_uri;
  console.log(typeof redirect === 'string' ? `Shared. Open this in the browser that started the sign-in:\n  ${redirect}` : 'Shared. The waiting page continues by itself.');
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
