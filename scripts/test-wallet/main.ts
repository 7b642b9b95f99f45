/**
 * The test wallet: plays an EU Digital Identity Wallet against a customer-test service. `--help` for its commands.
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { AUTHORIZE_OPTIONS, AUTHORIZED_OPTIONS, runAuthorize, runAuthorized } from './cli-authorize.js';
import { RECEIVE_OPTIONS, runList, runReceive } from './cli-receive.js';
import { PRESENT_OPTIONS, runPresent } from './cli-present.js';

const HELP = `The test wallet: receives credentials over OpenID4VCI 1.0 and presents them over OpenID4VP 1.0.

Commands:
  receive '<offer link or QR text>' [--tx-code <code>] [--batch <n>] [--configuration <id>] [--store <file>]
      takes a credential offer (openid-credential-offer://?credential_offer_uri=… or ?credential_offer=…), receives
      n credentials (at most the issuer's batch size), each bound to a fresh key, and keeps them in the store.
      npm run test-wallet -- receive 'openid-credential-offer://?credential_offer_uri=https%3A%2F%2F…' --tx-code 123456 --batch 3

  authorize --issuer <credential issuer> --client-id <id> --redirect-uri <uri> [--configuration <id>] [--store <file>]
      starts the authorization code flow (OpenID4VCI 1.0 §5, PKCE S256): prints the URL to open in a browser, where
      the person goes through the document verification; keeps the pending request (state, PKCE verifier) in
      <store>.authorization.json (mode 0600). The client id and redirect URI are those the operator registered
      (VCI_WALLET_CLIENTS).
      npm run test-wallet -- authorize --issuer https://broker.example/vci --client-id test-wallet --redirect-uri https://wallet.example/cb

  authorized '<redirected URL>' [--batch <n>] [--store <file>]
      finishes it: takes the URL the browser was redirected to (redirect_uri?code=…&state=…&iss=…), checks state and
      iss (RFC 9207), refuses error=… (e.g. access_denied), redeems the code and keeps n credentials in the store.
      npm run test-wallet -- authorized 'https://wallet.example/cb?code=…&state=…&iss=https%3A%2F%2Fbroker.example%2Fvci' --batch 3

  [present] '<wallet link>' [--use <credential query id>] [--yes] [--decline] [--store <file>] [--request-signer-root <file>]
      takes the link of the broker's waiting page (its "Open wallet" button's, or the QR code's content), gets a
      test PID (SD-JWT VC and mdoc) and a test mDL from the service's test issuer, reads the signed request, shows
      who asks for what, and once confirmed (or with --yes) answers with only the asked claims; with --decline it
      answers access_denied. With --store it also answers with received credentials, a different one each time, and
      prefers them: of the options the request accepts, one a stored credential answers (reused_identity) comes first.
      --use names the credential query to answer (pid_sd_jwt, pid_mdoc, mdl, reused_identity: the ids it prints).
      With --request-signer-root (PEM or DER) it trusts that root for the request and asks no test issuer.
      npm run test-wallet -- 'openid4vp://?client_id=…&request_uri=…' --store /tmp/wallet.json --yes

  list [--store <file>]
      lists the stored credentials (vct, issuer, how often used; no claim values).
      npm run test-wallet -- list

The store is a JSON file (mode 0600): --store, else $TEST_WALLET_STORE, else test-wallet-credentials-<uid>.json in
the system's temporary directory.`;

/** parseArgs' errors are a paragraph; the first sentence says it all. */
function parse<T extends ParseArgsOptionsConfig>(args: string[], options: T) {
  try {
    return parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', default: false } } as T & { help: { type: 'boolean'; default: false } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message.split(/\. /)[0] : String(e)} (npm run test-wallet -- --help)`);
  }
}

async function main(): Promise<void> {
  const [first, ...rest] = process.argv.slice(2);
  const command = ['receive', 'authorize', 'authorized', 'present', 'list'].includes(first) ? first : null;
  const args = command ? rest : process.argv.slice(2);
  if (command === 'authorize') {
    const { values, positionals } = parse(args, AUTHORIZE_OPTIONS);
    if (values.help) return void console.log(HELP);
    return runAuthorize(positionals, values);
  }
  if (command === 'authorized') {
    const { values, positionals } = parse(args, AUTHORIZED_OPTIONS);
    if (values.help) return void console.log(HELP);
    return runAuthorized(positionals, values);
  }
  if (command === 'receive') {
    const { values, positionals } = parse(args, RECEIVE_OPTIONS);
    if (values.help) return void console.log(HELP);
    return runReceive(positionals, values);
  }
  if (command === 'list') {
    const { values, positionals } = parse(args, { store: { type: 'string' } } as const);
    if (values.help) return void console.log(HELP);
    if (positionals.length > 0) throw new Error('usage: npm run test-wallet -- list [--store file]');
    return runList(values);
  }
  const { values, positionals } = parse(args, PRESENT_OPTIONS);
  if (values.help || positionals.length === 0) return void console.log(HELP);
  return runPresent(positionals, values);
}

main().catch((e: unknown) => {
  console.error(`test-wallet: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
