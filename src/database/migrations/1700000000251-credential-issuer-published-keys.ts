import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A replaced signer of the credential issuer keeps its certificate (published in the issuer's JWT VC Issuer Metadata
 * while credentials it signed may still be valid) after its private key is destroyed: the sealed key may be null.
 */
export class CredentialIssuerPublishedKeys1700000000251 implements MigrationInterface {
  name = 'CredentialIssuerPublishedKeys1700000000251';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE credential_issuer_keys ALTER COLUMN private_key_sealed DROP NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM credential_issuer_keys WHERE private_key_sealed IS NULL`);
    await q.query(`ALTER TABLE credential_issuer_keys ALTER COLUMN private_key_sealed SET NOT NULL`);
  }
}
