import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The credential issuer's c_nonces are sealed values now, and the spent ones and the DPoP proof ids are kept in Redis
 * or in the instance's memory, minutes long: their tables go. They grew by a row per call to the nonce endpoint and
 * per DPoP proof, from anyone. What they held is lost on purpose: a c_nonce given before the upgrade is refused
 * (invalid_nonce; the wallet fetches a new one), as one of a key no longer configured would be.
 */
export class CredentialIssuerStatelessNonces1700000000244 implements MigrationInterface {
  name = 'CredentialIssuerStatelessNonces1700000000244';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS credential_issuer_nonces`);
    await q.query(`DROP TABLE IF EXISTS credential_issuer_dpop_proofs`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE credential_issuer_nonces (nonce_hash text PRIMARY KEY, expires_at timestamptz NOT NULL)`);
    await q.query(`CREATE TABLE credential_issuer_dpop_proofs (jti_hash text PRIMARY KEY, expires_at timestamptz NOT NULL)`);
  }
}
