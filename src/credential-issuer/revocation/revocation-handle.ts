import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../common/crypto/constant-time.js';

/** 32 random bytes, base64url: 256 bits, far beyond guessing (the brief's floor is 128). */
const HANDLE = /^[A-Za-z0-9_-]{43}$/;

export interface RevocationHandle {
  /** Given to the person once (in the link of their revocation page); never stored. */
  handle: string;
  /** SHA-256 (hex) of the handle: what is stored with the issuance's status rows (allocate's revocationHandleHash). */
  hash: string;
}

/** A new handle for one issuance: the person revokes every credential of it at `${BASE_URL}/vci/revoke/<handle>`. */
export function revocationHandle(): RevocationHandle {
  const handle = randomBytes(32).toString('base64url');
  return { handle, hash: sha256Hex(handle) };
}

/** The stored hash of a presented handle, or undefined for anything that cannot be one (bounded input, no lookup). */
export function hashOfPresentedHandle(presented: string): string | undefined {
  return HANDLE.test(presented) ? sha256Hex(presented) : undefined;
}

export const revocationPageUrl = (baseUrl: string, handle: string) => `${baseUrl}/vci/revoke/${handle}`;
