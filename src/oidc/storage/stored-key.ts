import { hash } from 'node:crypto';

/**
 * Models whose id is a bearer credential (whoever holds the value can use it). Only a SHA-256 of the value
 * is stored as the row key, so a reader of the database (a backup, a replica, an injected query) cannot
 * use the tokens it sees. The value has 256 bits of randomness, so an unsalted hash is not reversible.
 * Sessions and interactions are not in the list: their ids travel only in cookies signed with COOKIE_KEYS,
 * which a database reader does not have.
 */
const CREDENTIAL_MODELS = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PushedAuthorizationRequest',
]);

export const isCredentialModel = (model: string): boolean => CREDENTIAL_MODELS.has(model);

/** The same hash as the migration that converted rows stored before hashing (1700000000004). */
export function credentialHash(value: string): string {
  // The one-shot form: no Hash object per call (a code exchange hashes three or four keys).
  return hash('sha256', value, 'base64url');
}

/** The row key of a model's id: the hash for credentials, the id itself otherwise. */
export function storedKey(model: string, id: string): string {
  return isCredentialModel(model) ? credentialHash(id) : id;
}
