import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The verifier is the Chip Authentication terminal (ICAO 9303-11 §6.2): the session keeps the sealed terminal
 * state (ephemeral private key, session keys, DG14 hash) between the CA challenge and the chip step.
 */
export class ChipAuthChallenge1700000000007 implements MigrationInterface {
  name = 'ChipAuthChallenge1700000000007';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE verification_sessions ADD COLUMN ca_challenge_sealed text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE verification_sessions DROP COLUMN ca_challenge_sealed`);
  }
}
