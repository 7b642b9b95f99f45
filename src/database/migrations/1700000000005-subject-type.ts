import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Merchants choose their OIDC subject type (spec 2.9: public or pairwise); existing merchants stay public. */
export class SubjectType1700000000005 implements MigrationInterface {
  name = 'SubjectType1700000000005';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants ADD COLUMN subject_type text NOT NULL DEFAULT 'public' CHECK (subject_type IN ('public', 'pairwise'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants DROP COLUMN subject_type`);
  }
}
