/**
 * `test-wallet authorize` and `test-wallet authorized`: the Authorization Code flow in two steps, with a person's
 * browser between them. The first prints the URL to open and keeps the pending request (its state and PKCE
 * verifier: secrets) in a file of the owner's only, next to the store; the second takes the URL the browser was
 * redirected to, finishes, and stores the credentials.
 */
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { finishAuthorization, startAuthorization, type PendingAuthorization } from './authorization.js';
import { keepAndTell } from './cli-receive.js';
import { CredentialStore, defaultStorePath } from './credential-store.js';
import { isObject } from './http-json.js';

export const AUTHORIZE_OPTIONS = {
  issuer: { type: 'string' },
  'client-id': { type: 'string' },
  'redirect-uri': { type: 'string' },
  configuration: { type: 'string' },
  store: { type: 'string' },
} as const;

export const AUTHORIZED_OPTIONS = {
  batch: { type: 'string' },
  store: { type: 'string' },
} as const;

const PENDING_FIELDS = [
  'authorizationUrl',
  'state',
  'codeVerifier',
  'credentialIssuer',
  'authorizationServer',
  'clientId',
  'redirectUri',
  'configurationId',
] as const;

/** The pending authorization lives next to the store it will fill: `<store>.authorization.json`. */
export const pendingPath = (storePath: string): string => `${storePath}.authorization.json`;

function savePending(path: string, pending: PendingAuthorization): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ version: 1, pending }, null, 2)}\n`, { mode: 0o600 });
  // The mode given to writeFileSync applies only to a new file, and under the umask: set it outright.
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

function loadPending(path: string): PendingAuthorization {
  if (!existsSync(path)) throw new Error(`no authorization is pending (${path}); start one with: npm run test-wallet -- authorize …`);
  let file: unknown;
  try {
    file = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new Error(`${path} is not a pending authorization of this wallet`);
  }
  const pending = isObject(file) && file.version === 1 ? file.pending : undefined;
  if (!isObject(pending) || !PENDING_FIELDS.every((f) => typeof pending[f] === 'string'))
    throw new Error(`${path} is not a pending authorization of this wallet`);
  return pending as unknown as PendingAuthorization;
}

export async function runAuthorize(
  positionals: string[],
  values: { issuer?: string; 'client-id'?: string; 'redirect-uri'?: string; configuration?: string; store?: string },
): Promise<void> {
  const { issuer, 'client-id': clientId, 'redirect-uri': redirectUri } = values;
  if (positionals.length > 0 || !issuer || !clientId || !redirectUri) {
    throw new Error(
      'usage: npm run test-wallet -- authorize --issuer <credential issuer> --client-id <id> --redirect-uri <uri> [--configuration <id>] [--store file]',
    );
  }
  const started = await startAuthorization({ credentialIssuer: issuer, clientId, redirectUri, configurationId: values.configuration });
  const path = pendingPath(values.store ?? defaultStorePath());
  savePending(path, started);
  console.log('Open this URL in a browser, go through the verification, then give the URL it is redirected to:');
  console.log(`  ${started.authorizationUrl}`);
  console.log(`  npm run test-wallet -- authorized '<the redirected URL>'${values.store ? ` --store ${values.store}` : ''}`);
  console.log(`Pending authorization (${started.configurationId}) kept in ${path}.`);
}

export async function runAuthorized(positionals: string[], values: { batch?: string; store?: string }): Promise<void> {
  const redirectedTo = positionals[0];
  if (!redirectedTo || positionals.length > 1) throw new Error("usage: npm run test-wallet -- authorized '<redirected URL>' [--batch 3] [--store file]");
  if (values.batch !== undefined && !/^[1-9][0-9]{0,2}$/.test(values.batch)) throw new Error('--batch: a number from 1 to 999');
  const store = new CredentialStore(values.store ?? defaultStorePath());
  const path = pendingPath(store.path);
  const received = await finishAuthorization({
    started: loadPending(path),
    redirectedTo,
    batch: values.batch === undefined ? undefined : Number(values.batch),
  });
  // The code is spent and the verifier of no further use: the pending authorization goes.
  rmSync(path, { force: true });
  keepAndTell(store, received);
}
