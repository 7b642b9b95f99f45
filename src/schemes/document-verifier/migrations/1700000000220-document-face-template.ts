import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The chip photo's face template, computed while the person takes the selfie (issue 9, speed): sealed, cleared at completion. */
export class DocumentFaceTemplate1700000000220 implements MigrationInterface {
  name = 'DocumentFaceTemplate1700000000220';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE verification_sessions ADD COLUMN document_face_sealed text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE verification_sessions DROP COLUMN document_face_sealed`);
  }
}
