import type { MigrationInterface, QueryRunner } from 'typeorm';

/** SAML 1.1 front door (issue 12): merchants' relying-party settings. */
export class SamlMerchants1700000000120 implements MigrationInterface {
  name = 'SamlMerchants1700000000120';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants ADD COLUMN saml jsonb NULL`);
    // One merchant per entity ID: it is the audience of the assertions and names the merchant on the back-channel.
    await q.query(`CREATE UNIQUE INDEX merchants_saml_entity_id ON merchants ((saml->>'entity_id')) WHERE saml IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX merchants_saml_entity_id`);
    await q.query(`ALTER TABLE merchants DROP COLUMN saml`);
  }
}
