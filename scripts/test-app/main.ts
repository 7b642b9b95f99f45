/**
 * The test app: plays the phone's part of a document verification in customer-test.
 *
 *   npm run test-app -- specimen --api <base>/app/v1 --face <image.jpg> [--person uto-passport]
 *       [--clone-detection active-authentication|chip-authentication] --out <dir>
 *       asks the server for a specimen chip (signed by its specimen CSCA) with that face in DG2; with
 *       chip-authentication the chip has a DG14 Chip Authentication key and no DG15
 *   npm run test-app -- --session <link from the QR code> --document <dir> --selfie <image>
 *       --left <image> --right <image>
 *       opens the session, answers the AA challenge (or, for a chip with only a DG14 key, relays the
 *       server's Chip Authentication challenge) with the specimen chip, answers the active liveness
 *       challenge with bursts synthesised from the images (head facing the camera, turned to the
 *       subject's own left and right; a missing turn defaults to the other's mirror image, which the
 *       server refuses as a still picture), prints the outcome as JSON; with --offer, after a pass, also the
 *       result screen's offer to keep the verified identity in the wallet (credential_offer: the link and the
 *       transaction code, which `npm run test-wallet -- receive` takes)
 *   npm run test-app -- ciba --api <base>/app/v1 --app-id <id> --app-secret <32+ chars> --document <dir>
 *       --selfie <image> --left <image> --right <image> [--provisioning-code <code>] [--user-code <code>] [--decline]
 *       plays the phone of a CIBA request: long-polls the next request of the app, prints it, then
 *       approves it with a document verification (as above) or declines it; prints the server's decision.
 *       A provisioning is seen only with --provisioning-code: the `provisioning_code` of the merchant's
 *       backchannel answer, which the merchant shows its user
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { approveWithVerification, CibaAppClient, runVerification, VerifierApiError, VerifierClient } from '../../libs/verifier-sdk/src/index.js';
import { specimenPhone } from './specimen-phone.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
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

const read = (path: string) => new Uint8Array(readFileSync(path));
const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(2);
};

async function specimen(): Promise<void> {
  if (!values.api || !values.face || !values.out) fail('specimen needs --api, --face and --out');
  const cloneDetection = values['clone-detection'] ?? 'active-authentication';
  if (cloneDetection !== 'active-authentication' && cloneDetection !== 'chip-authentication') fail('--clone-detection is active-authentication or chip-authentication');
  const document = await new VerifierClient(values.api!.replace(/\/$/, '')).requestSpecimen(read(values.face!), values.person, cloneDetection as 'active-authentication' | 'chip-authentication');
  mkdirSync(values.out!, { recursive: true });
  writeFileSync(join(values.out!, 'sod.bin'), Buffer.from(document.sod, 'base64'));
  for (const [n, b64] of Object.entries(document.data_groups)) writeFileSync(join(values.out!, `dg${n}.bin`), Buffer.from(b64, 'base64'));
  if (document.active_authentication_key) writeFileSync(join(values.out!, 'aa-key.der'), Buffer.from(document.active_authentication_key, 'base64'), { mode: 0o600 });
  if (document.chip_authentication_key) writeFileSync(join(values.out!, 'ca-key.der'), Buffer.from(document.chip_authentication_key, 'base64'), { mode: 0o600 });
  writeFileSync(join(values.out!, 'mrz.txt'), `${document.mrz}\n`);
  process.stdout.write(`specimen document written to ${values.out} (MRZ ${document.mrz})\n`);
}

async function verify(): Promise<void> {
  if (!values.session || !values.document || !values.selfie) fail('needs --session, --document and --selfie (see the header of scripts/test-app/main.ts)');
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
  if (!values.api || !values['app-id']) fail('ciba needs --api and --app-id (see the header of scripts/test-app/main.ts)');
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

const modes: Record<string, () => Promise<void>> = { specimen, ciba };
(modes[positionals[0] ?? ''] ?? verify)().catch((e: unknown) => {
  if (e instanceof VerifierApiError) fail(`the server refused: ${e.message}`);
  fail(`test app failed: ${(e as Error).message}`);
});
