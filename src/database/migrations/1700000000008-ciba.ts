import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CIBA (spec 4.3, 4.7, 6): our side of each backchannel request (the engine keeps its own row in
 * oidc_payloads), the per-merchant bindings of app instances to verified subjects, and the durable outbox of
 * ping/push callbacks. Personal data (subjects, binding texts) and bearer values (auth_req_id,
 * client_notification_token) are only stored sealed or hashed.
 */
export class Ciba1700000000008 implements MigrationInterface {
  name = 'Ciba1700000000008';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants ADD COLUMN backchannel_user_code_parameter boolean NOT NULL DEFAULT false`);
    await q.query(`CREATE TABLE ciba_requests (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      seq bigserial NOT NULL,
      client_id text NOT NULL,
      app_key text NOT NULL,
      kind text NOT NULL,
      state text NOT NULL,
      auth_req_id_hash text NOT NULL UNIQUE,
      sealed text NOT NULL,
      verification_uid text,
      interval_seconds integer NOT NULL,
      last_polled_at timestamptz,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX ciba_requests_app ON ciba_requests (app_key, state, seq)`);
    await q.query(`CREATE INDEX ciba_requests_expiry ON ciba_requests (expires_at)`);
    await q.query(`CREATE TABLE ciba_app_bindings (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      client_id text NOT NULL,
      app_key text NOT NULL,
      subject_key text NOT NULL,
      status text NOT NULL,
      sealed text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (client_id, app_key))`);
    await q.query(`CREATE INDEX ciba_app_bindings_subject ON ciba_app_bindings (client_id, subject_key)`);
    await q.query(`CREATE TABLE ciba_outbox (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      client_id text NOT NULL,
      kind text NOT NULL,
      state text NOT NULL,
      sealed text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      delivered_at timestamptz)`);
    await q.query(`CREATE INDEX ciba_outbox_due ON ciba_outbox (state, next_attempt_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ciba_outbox`);
    await q.query(`DROP TABLE ciba_app_bindings`);
    await q.query(`DROP TABLE ciba_requests`);
    await q.query(`ALTER TABLE merchants DROP COLUMN backchannel_user_code_parameter`);
  }
}
