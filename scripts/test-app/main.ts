/**
 * The test app: plays the phone's part of a document verification in customer-test. `--help` for its commands
 * (HELP below), each with an example that runs as pasted against `npm start` (test/e2e/verifier-test-app.e2e-spec.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { approveWithVerification, CibaAppClient, runVerification, VerifierApiError, VerifierClient } from '@identity-broker/verifier-sdk';
import { SPECIMEN_IDENTITIES } from '../../src/verifier-claims/specimen-identities.js';
import { specimenPhone } from './specimen-phone.js';

/** The specimen holders the service signs chips for (customer-test). */
const SPECIMENS: string[] = SPECIMEN_IDENTITIES.map((s) => s.id);

const HELP = `The test app: plays the phone's part of a document verification against a customer-test service.
Start the service first (npm start; its app API is <base URL>/app/v1). The face images below ship with the project.

Commands:
  specimen --api <app API> --face <image> --out <dir> [--person <specimen>] [--clone-detection active-authentication|chip-authentication]
      asks the service for a specimen chip with that face in DG2 (signed by its specimen CSCA) and writes its files to
      <dir>. Specimens: ${SPECIMENS.join(', ')} (default uto-passport).
      npm run test-app -- specimen --api http://localhost:3000/app/v1 --face test/fixtures/verifier-faces/sheldon-document.jpg --out ./specimen-doc

  [verify] --session '<link>' --document <dir> --selfie <image> [--left <image>] [--right <image>] [--offer]
      opens the session of the link under the verifier page's QR code, answers the chip and liveness challenges with
      the specimen and the images, prints the outcome as JSON (exit 0 on a pass). --offer: after a pass, also the
      offer to keep the verified identity in a wallet (npm run test-wallet -- receive takes it).
      npm run test-app -- --session '<link under the QR code>' --document ./specimen-doc --selfie test/fixtures/verifier-faces/sheldon-center.png --left test/fixtures/verifier-faces/sheldon-left.png --right test/fixtures/verifier-faces/sheldon-right.png

  ciba --api <app API> --app-id <id> [--app-secret <secret>] [--provisioning-code <code>] [--user-code <code>] [--decline]
       [--document <dir> --selfie <image> --left <image> --right <image>]
      plays the phone of a CIBA request: waits for the app's next request, prints it, then approves it with a document
      verification or, with --decline, declines it; prints the decision. A first request of an app that is not yet
      linked is seen only with --provisioning-code (the code the merchant's backchannel answer gave it to show).
      npm run test-app -- ciba --api http://localhost:3000/app/v1 --app-id my-phone --provisioning-code <code> --decline

  help, --help, -h
      this text.`;

/** parseArgs' errors are a paragraph whose first sentence says it all; no stack trace for a mistyped option. */
function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        api: { type: 'string' },
        face: { type: 'string' },
        person: { type: 'string' },
        'clone-detection': { type: 'string' },
        out: { type: 'string' },
        session: { type: 'string' },
        document: { type: 'string' },
        selfie: { type: 'string' },
        left: { type: 'string' },
        right: { type: 'string' },
        'app-id': { type: 'string' },
        'app-secret': { type: 'string' },
        'user-code': { type: 'string' },
        'provisioning-code': { type: 'string' },
        decline: { type: 'boolean' },
        offer: { type: 'boolean' },
      },
    });
  } catch (e) {
    process.stderr.write(`test-app: ${(e as Error).message.split(/\. /)[0]} (npm run test-app -- --help)\n`);
    process.exit(2);
  }
}

const { values, positionals } = parseCommandLine();
const read = (path: string) => new Uint8Array(readFileSync(path));
const fail = (message: string): never => {
  process.stderr.write(`test-app: ${message}\n`);
  process.exit(2);
};

async function specimen(): Promise<void> {
  if (!values.api || !values.face || !values.out) fail('specimen needs --api, --face and --out (npm run test-app -- --help)');
  if (values.person && !SPECIMENS.includes(values.person)) fail(`--person is one of ${SPECIMENS.join(', ')}`);
  const cloneDetection = values['clone-detection'] ?? 'active-authentication';
  if (cloneDetection !== 'active-authentication' && cloneDetection !== 'chip-authentication')
    fail('--clone-detection is active-authentication or chip-authentication');
  const document = await new VerifierClient(values.api!.replace(/\/$/, '')).requestSpecimen(
    read(values.face!),
    values.person,
    cloneDetection as 'active-authentication' | 'chip-authentication',
  );
  mkdirSync(values.out!, { recursive: true });
  writeFileSync(join(values.out!, 'sod.bin'), Buffer.from(document.sod, 'base64'));
  for (const [n, b64] of Object.entries(document.data_groups)) writeFileSync(join(values.out!, `dg${n}.bin`), Buffer.from(b64, 'base64'));
  if (document.active_authentication_key)
    writeFileSync(join(values.out!, 'aa-key.der'), Buffer.from(document.active_authentication_key, 'base64'), { mode: 0o600 });
  if (document.chip_authentication_key)
    writeFileSync(join(values.out!, 'ca-key.der'), Buffer.from(document.chip_authentication_key, 'base64'), { mode: 0o600 });
  writeFileSync(join(values.out!, 'mrz.txt'), `${document.mrz}\n`);
  process.stdout.write(`specimen document written to ${values.out} (MRZ ${document.mrz})\n`);
}

async function verify(): Promise<void> {
  if (!values.session || !values.document || !values.selfie) fail('verify needs --session, --document and --selfie (npm run test-app -- --help)');
  const { client, qrToken } = VerifierClient.fromLink(values.session!);
  const phone = specimenPhone({
    documentDir: values.document!,
    selfie: read(values.selfie!),
    left: values.left ? read(values.left) : undefined,
    right: values.right ? read(values.right) : undefined,
  });
  const outcome = await runVerification(client, qrToken, phone);
  const offer = values.offer && outcome.authentication_result === 'pass' ? { credential_offer: await client.credentialOffer() } : {};
  process.stdout.write(`${JSON.stringify({ ...outcome, ...offer }, null, 2)}\n`);
  process.exit(outcome.authentication_result === 'pass' ? 0 : 1);
}

async function ciba(): Promise<void> {
  if (!values.api || !values['app-id']) fail('ciba needs --api and --app-id (npm run test-app -- --help)');
  const installed = new CibaAppClient(values.api!.replace(/\/$/, ''), values['app-id']!, values['app-secret']);
  const app = values['provisioning-code'] ? installed.usingProvisioningCode(values['provisioning-code']) : installed;
  let cursor: string | undefined;
  for (;;) {
    const pending = await app.pending(cursor, 25);
    cursor = pending.cursor;
    const request = pending.requests[0];
    if (!request) continue;
    process.stdout.write(`${JSON.stringify(request, null, 2)}\n`);
    if (values.decline) {
      process.stdout.write(`${JSON.stringify(await app.decline(request.id))}\n`);
      return;
    }
    if (!values.document || !values.selfie) fail('approving needs --document and --selfie');
    const phone = specimenPhone({
      documentDir: values.document!,
      selfie: read(values.selfie!),
      left: values.left ? read(values.left) : undefined,
      right: values.right ? read(values.right) : undefined,
    });
    const { outcome, result } = await approveWithVerification(app, request, phone, values['user-code']);
    process.stdout.write(`${JSON.stringify({ outcome, result }, null, 2)}\n`);
    process.exit(result.state === 'approved' ? 0 : 1);
  }
}

const help = async () => void process.stdout.write(`${HELP}\n`);
const modes: Record<string, () => Promise<void>> = { specimen, ciba, verify, help };
const command = values.help ? 'help' : (positionals[0] ?? (values.session ? 'verify' : 'help'));
if (!(command in modes)) fail(`unknown command ${JSON.stringify(command)}: specimen, verify, ciba or help (npm run test-app -- --help)`);
modes[command]().catch((e: unknown) => {
  if (e instanceof VerifierApiError) fail(`the server refused: ${e.message}`);
  fail((e as Error).message);
});
