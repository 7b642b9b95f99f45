import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The engine's models that are credentials (tokens and codes), as the storage adapter knew them when this
 * migration was written. A migration is history: it names them itself rather than importing today's list.
 */
const CREDENTIAL_MODEL_NAMES = [
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PushedAuthorizationRequest',
];

/** SQL twin of credentialHash(): SHA-256 of the UTF-8 value, base64url without padding. */
const hashOf = (column: string) => `rtrim(translate(encode(sha256(convert_to(${column}, 'UTF8')), 'base64'), '+/', '-_'), '=')`;

/**
 * Tokens and codes stored before this migration were keyed by their value in clear: key them by its hash
 * and drop the copy of the value inside the payload (`jti`), as the adapter now does (stored-key.ts).
 */
export class HashedCredentials1700000000004 implements MigrationInterface {
  name = 'HashedCredentials1700000000004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE oidc_payloads SET id = ${hashOf('id')}, payload = payload - 'jti',
         user_code = CASE WHEN user_code IS NULL THEN NULL ELSE ${hashOf('user_code')} END
       WHERE model = ANY($1)`,
      [CREDENTIAL_MODEL_NAMES],
    );
  }

  /** A hash cannot be turned back into the token: going back invalidates the tokens and codes in flight. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM oidc_payloads WHERE model = ANY($1)`, [CREDENTIAL_MODEL_NAMES]);
  }
}
