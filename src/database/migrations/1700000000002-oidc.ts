import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Oidc1700000000002 implements MigrationInterface {
  name = 'Oidc1700000000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE oidc_payloads (
      model text NOT NULL,
      id text NOT NULL,
      payload jsonb NOT NULL,
      grant_id text,
      user_code text,
      uid text,
      expires_at timestamptz,
      consumed_at timestamptz,
      PRIMARY KEY (model, id)
    )`);
    await q.query(`CREATE INDEX oidc_payloads_grant_id ON oidc_payloads (grant_id)`);
    await q.query(`CREATE INDEX oidc_payloads_uid ON oidc_payloads (uid)`);
    await q.query(`CREATE INDEX oidc_payloads_user_code ON oidc_payloads (user_code)`);
    await q.query(`CREATE INDEX oidc_payloads_expires_at ON oidc_payloads (expires_at)`);
    await q.query(`CREATE TABLE signing_keys (
      kid text PRIMARY KEY,
      alg text NOT NULL CHECK (alg IN ('RS256', 'ES256')),
      private_jwk_sealed text NOT NULL,
      status text NOT NULL CHECK (status IN ('active', 'retiring')),
      retire_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE brokered_logins (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      client_id text NOT NULL,
      grant_id text NOT NULL UNIQUE,
      scheme text NOT NULL,
      identity_sealed text NOT NULL,
      acr text,
      amr jsonb NOT NULL,
      auth_time timestamptz NOT NULL,
      evidence_ref text,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX brokered_logins_expires_at ON brokered_logins (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE brokered_logins');
    await q.query('DROP TABLE signing_keys');
    await q.query('DROP TABLE oidc_payloads');
  }
}
