import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A record's claims sealed apart from its images, so that reading the claims (the login, the credential issuer)
 * unseals no photo. Existing rows cannot be split here (the key is not in the database): they keep the whole record
 * in `sealed` and NULL here, are read whole, and are gone by retention (at most 90 days) after this runs.
 */
export class VerificationRecordClaims1700000000257 implements MigrationInterface {
  name = 'VerificationRecordClaims1700000000257';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE verification_records ADD COLUMN sealed_claims text`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Split rows cannot be joined back by SQL either: the code before this reads their `sealed` as a whole record, which
    // fails authentication (a refusal, never wrong data) until retention deletes them. Deleting them here would revoke
    // their credentials as erased (the issuer's purge), so they are left.
    await q.query(`ALTER TABLE verification_records DROP COLUMN sealed_claims`);
  }
}
