import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Verifier1700000000003 implements MigrationInterface {
  name = 'Verifier1700000000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE verification_sessions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      client_id text NOT NULL,
      interaction_uid text NOT NULL,
      qr_token_sha256 text NOT NULL UNIQUE,
      app_token_sha256 text UNIQUE,
      state text NOT NULL CHECK (state IN ('created', 'opened', 'chip_received', 'face_received', 'completed', 'cancelled', 'expired')),
      requirements jsonb NOT NULL,
      aa_challenge text,
      liveness_challenge jsonb,
      chip_sealed text,
      outcome jsonb,
      record_id uuid,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX verification_sessions_interaction ON verification_sessions (interaction_uid)`);
    await q.query(`CREATE INDEX verification_sessions_expires_at ON verification_sessions (expires_at)`);
    await q.query(`CREATE TABLE verification_records (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      client_id text NOT NULL,
      sealed text NOT NULL,
      key_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      delete_after timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX verification_records_delete_after ON verification_records (delete_after)`);
    await q.query(`CREATE TABLE specimen_authorities (
      id text PRIMARY KEY,
      sealed text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE specimen_authorities');
    await q.query('DROP TABLE verification_records');
    await q.query('DROP TABLE verification_sessions');
  }
}
