/**
 * The wallet's credentials between runs: one JSON file, readable by its owner only (0600: it holds private keys and
 * personal data), rewritten whole through a temporary file so a reader never sees half of it.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JWK } from 'jose';

export interface StoredCredential {
  /** The credential's own digest: how the store names it (markUsed). */
  id: string;
  format: 'dc+sd-jwt';
  vct: string;
  /** The SD-JWT as issued, every disclosure included, no key binding. */
  credential: string;
  /** The holder key the credential is bound to (cnf.jwk), private part included. */
  holderPrivateJwk: JWK;
  /** The credential issuer identifier it came from. */
  issuer: string;
  receivedAt: string;
  /** How many presentations used it: the least used answers next, so that presentations are not linkable. */
  uses: number;
}

interface StoreFile {
  version: 1;
  credentials: StoredCredential[];
}

/** `--store`, else TEST_WALLET_STORE, else a file of this user's in the system's temporary directory. */
export function defaultStorePath(env: NodeJS.ProcessEnv = process.env): string {
  // The user id in the name: another user of a shared /tmp cannot have put the file there first.
  return env.TEST_WALLET_STORE || join(tmpdir(), `test-wallet-credentials-${process.getuid?.() ?? 'user'}.json`);
}

export const credentialId = (credential: string): string => createHash('sha256').update(credential).digest('base64url').slice(0, 22);

export class CredentialStore {
  constructor(readonly path: string = defaultStorePath()) {}

  list(): StoredCredential[] {
    if (!existsSync(this.path)) return [];
    let file: StoreFile;
    try {
      file = JSON.parse(readFileSync(this.path, 'utf8')) as StoreFile;
    } catch {
      throw new Error(`the credential store ${this.path} is not a JSON file of this wallet`);
    }
    if (file?.version !== 1 || !Array.isArray(file.credentials)) throw new Error(`the credential store ${this.path} is not a store of this wallet`);
    return file.credentials;
  }

  /** Adds credentials (one already held is not added twice). */
  add(entries: StoredCredential[]): void {
    const held = this.list();
    const known = new Set(held.map((c) => c.id));
    this.write([...held, ...entries.filter((e) => !known.has(e.id))]);
  }

  /** The least used credential that `accepts` takes (the earliest received among equals), or undefined. */
  pickLeastUsed(accepts: (credential: StoredCredential) => boolean): StoredCredential | undefined {
    return this.list()
      .filter(accepts)
      .reduce<StoredCredential | undefined>((best, c) => (best === undefined || c.uses < best.uses ? c : best), undefined);
  }

  markUsed(id: string): void {
    const held = this.list();
    const found = held.find((c) => c.id === id);
    if (!found) throw new Error('the credential store holds no such credential');
    found.uses += 1;
    this.write(held);
  }

  private write(credentials: StoredCredential[]): void {
    const file: StoreFile = { version: 1, credentials };
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    // The mode given to writeFileSync applies only to a new file, and under the umask: set it outright.
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.path);
  }
}
