import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SAML 1.1 Browser/Artifact (issue 12): signed assertions waiting to be resolved over the SOAP back-channel,
 * keyed by a hash of the artifact's handle, the assertion sealed; single use, one minute.
 */
export class SamlArtifacts1700000000122 implements MigrationInterface {
  name = 'SamlArtifacts1700000000122';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE saml_artifacts (
        handle_hash text PRIMARY KEY,
        client_id text NOT NULL,
        assertion_sealed text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        resolved_at timestamptz NULL
      )`);
    await q.query(`CREATE INDEX saml_artifacts_expires_at ON saml_artifacts (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE saml_artifacts`);
  }
}
