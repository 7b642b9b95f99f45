import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1700000000001 implements MigrationInterface {
  name = 'Foundation1700000000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE merchants (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      client_id text NOT NULL UNIQUE,
      name text NOT NULL,
      client_secret_sealed text NOT NULL,
      redirect_uris jsonb NOT NULL,
      scope text,
      eid_schemes jsonb,
      psd2 boolean NOT NULL DEFAULT false,
      token_endpoint_auth_method text NOT NULL DEFAULT 'client_secret_basic',
      id_token_signed_response_alg text NOT NULL DEFAULT 'RS256',
      id_token_encrypted_response_alg text,
      id_token_encrypted_response_enc text,
      userinfo_encrypted_response_alg text,
      userinfo_encrypted_response_enc text,
      jwks_uri text,
      jwks jsonb,
      encryption_key_id text,
      request_object_key_id text,
      request_object_signing_alg text,
      backchannel_token_delivery_mode text NOT NULL DEFAULT 'poll',
      backchannel_client_notification_endpoint text,
      enabled boolean NOT NULL DEFAULT true,
      secret_rotated_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE admin_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      token_sha256 text NOT NULL UNIQUE,
      role text NOT NULL CHECK (role IN ('admin', 'support')),
      label text NOT NULL,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE audit_records (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      actor text NOT NULL,
      actor_role text NOT NULL,
      action text NOT NULL,
      target_type text NOT NULL,
      target_id text NOT NULL,
      changes jsonb NOT NULL DEFAULT '{}',
      at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX audit_records_target ON audit_records (target_type, target_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE audit_records');
    await q.query('DROP TABLE admin_tokens');
    await q.query('DROP TABLE merchants');
  }
}
