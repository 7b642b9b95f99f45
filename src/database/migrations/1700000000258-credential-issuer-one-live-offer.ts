import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One live offer per verification: the broker page and the verifier app's result screen show the same offer, so two
 * callers racing to make one must not both insert (the second would withdraw the first, whose link the person may
 * already hold). A partial unique index on the offers still shown; of any duplicates left from before, the newest
 * stays (the older ones were withdrawn by it under the previous rule anyway).
 */
export class CredentialIssuerOneLiveOffer1700000000258 implements MigrationInterface {
  name = 'CredentialIssuerOneLiveOffer1700000000258';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE credential_issuances i SET state = 'burnt'
      WHERE i.state = 'offered' AND EXISTS (
        SELECT 1 FROM credential_issuances n
        WHERE n.record_id = i.record_id AND n.state = 'offered' AND (n.created_at, n.id) > (i.created_at, i.id))`);
    await q.query(`CREATE UNIQUE INDEX credential_issuances_one_live_offer ON credential_issuances (record_id) WHERE state = 'offered'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX credential_issuances_one_live_offer`);
  }
}
