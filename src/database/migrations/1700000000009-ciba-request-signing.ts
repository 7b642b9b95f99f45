import type { MigrationInterface, QueryRunner } from 'typeorm';

/** CIBA Core 7.1.1 / 4: the algorithm a merchant registers for its signed backchannel requests (then required). */
export class CibaRequestSigning1700000000009 implements MigrationInterface {
  name = 'CibaRequestSigning1700000000009';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants ADD COLUMN backchannel_authentication_request_signing_alg text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants DROP COLUMN backchannel_authentication_request_signing_alg`);
  }
}
