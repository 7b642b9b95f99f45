import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Upstream eID schemes as data (issue 14) and the pending redirects of redirect-based schemes. */
export class EidSchemes1700000000200 implements MigrationInterface {
  name = 'EidSchemes1700000000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE eid_schemes (
      id text PRIMARY KEY,
      kind text NOT NULL DEFAULT 'upstream-oidc',
      labels jsonb NOT NULL,
      environment text NOT NULL,
      enabled boolean NOT NULL DEFAULT true,
      issuer text NOT NULL,
      client_id text NOT NULL,
      client_secret_sealed text,
      token_endpoint_auth_method text NOT NULL,
      scope text NOT NULL,
      acr_values jsonb NOT NULL,
      acr_map jsonb NOT NULL,
      pass_ui_locales boolean NOT NULL,
      pass_login_hint boolean NOT NULL,
      userinfo boolean NOT NULL,
      amr jsonb NOT NULL,
      subject_claim text NOT NULL,
      subject_mode text NOT NULL,
      claim_mappers jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE eid_pending_redirects (
      state_hash text PRIMARY KEY,
      interaction_uid text NOT NULL,
      scheme text NOT NULL,
      data_sealed text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz
    )`);
    await q.query(`CREATE INDEX eid_pending_redirects_expires_at ON eid_pending_redirects (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE eid_pending_redirects`);
    await q.query(`DROP TABLE eid_schemes`);
  }
}
