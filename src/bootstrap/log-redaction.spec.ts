import { DataSource } from 'typeorm';
import { addLogSink, logger, setLogLevel } from '../common/logging/logger.js';
import { openServiceDatabase } from './scheme-manifests.js';
import { createTestDatabase } from '../../test/support/test-database.js';

/** Logged errors keep what support needs (codes, the SQL text) and lose the values (parameters, details). */
describe('error logging', () => {
  const lines: string[] = [];
  let stop: () => void;
  beforeAll(() => {
    stop = addLogSink((line) => lines.push(line), { capture: true });
    setLogLevel('error');
  });
  afterAll(() => {
    stop();
    setLogLevel('silent');
  });
  beforeEach(() => lines.splice(0));
  const lastLine = () => JSON.parse(lines.at(-1)!) as { err: Record<string, unknown> };

  it('keeps error codes such as ECONNREFUSED (redaction is by precise path)', () => {
    logger.error({ err: Object.assign(new Error('connect failed'), { code: 'ECONNREFUSED' }) }, 'upstream down');
    expect(lastLine().err.code).toBe('ECONNREFUSED');
  });

  it('still redacts secrets where they are known to sit', () => {
    logger.error({ params: { code: 'the-code', code_verifier: 'the-verifier', client_secret: 'the-secret' }, headers: { authorization: 'Basic abc' } }, 'x');
    const line = lines.at(-1)!;
    for (const secret of ['the-code', 'the-verifier', 'the-secret', 'Basic abc']) expect([secret, line.includes(secret)]).toEqual([secret, false]);
  });

  describe('database errors', () => {
    let dataSource: DataSource;
    let close: () => Promise<void>;
    beforeAll(async () => {
      const database = await createTestDatabase();
      const handle = await openServiceDatabase(database.url ? { kind: 'postgres', url: database.url } : { kind: 'embedded', dir: 'memory://' });
      dataSource = new DataSource({ ...handle.options, migrationsRun: false } as never);
      await dataSource.initialize();
      close = async () => {
        await dataSource.destroy();
        await handle.close();
        await database.drop();
      };
      await dataSource.query('CREATE TABLE secrets (value text PRIMARY KEY)');
    });
    afterAll(() => close());

    const failing = async (sql: string, parameters: unknown[]) => {
      try {
        await dataSource.query(sql, parameters);
      } catch (e) {
        return e;
      }
      throw new Error('the query was expected to fail');
    };

    it('drops the parameters and the detail of a failed query, keeps SQLSTATE and the SQL text', async () => {
      const secret = 'tok_unique_violation_5f2c9e';
      await dataSource.query('INSERT INTO secrets (value) VALUES ($1)', [secret]);
      logger.error({ err: await failing('INSERT INTO secrets (value) VALUES ($1)', [secret]) }, 'insert failed');
      expect(lines.at(-1)).not.toContain(secret);
      const { err } = lastLine();
      expect(err.code).toBe('23505');
      expect(err.query).toBe('INSERT INTO secrets (value) VALUES ($1)');
    });

    it('masks a value that PostgreSQL quotes in its message', async () => {
      const secret = 'tok_bad_uuid_81d0aa';
      logger.error({ err: await failing('SELECT $1::uuid', [secret]) }, 'select failed');
      expect(lines.at(-1)).not.toContain(secret);
      expect(String(lastLine().err.message)).toMatch(/invalid input syntax for type uuid/);
    });

    it('cleans a database error carried as the cause of another error', async () => {
      const secret = 'tok_in_cause_77ab01';
      const cause = await failing('SELECT $1::uuid', [secret]);
      logger.error({ err: new Error('login failed', { cause }) }, 'wrapped');
      expect(lines.at(-1)).not.toContain(secret);
    });
  });
});
