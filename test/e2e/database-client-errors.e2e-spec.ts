import type { Pool, PoolClient } from 'pg';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { describeWithPostgres } from '../support/describe-with-postgres.js';

/**
 * A pool connection whose backend PostgreSQL ends (a restart, DROP DATABASE … WITH (FORCE), pg_terminate_backend)
 * while nobody is listening on it must not throw its error into the process: that would end the instance.
 */
describeWithPostgres('a database connection ended by the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('does not end the process when no query runner holds it, and the pool goes on', async () => {
    const pool = (t.dataSource.driver as unknown as { master: Pool }).master;
    // Borrowed straight from the pool: pg-pool has taken its idle listener off and TypeORM has not put one on.
    const client: PoolClient = await pool.connect();
    try {
      const [{ pid }] = (await client.query('SELECT pg_backend_pid() AS pid')).rows as { pid: number }[];
      // The server's error message comes first: thrown (no listener), it stops the client's reading and it never ends.
      let timer: NodeJS.Timeout | undefined;
      const endedOrTimedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 5_000);
        client.once('end', () => resolve(true));
      });
      const [{ terminated }] = await t.dataSource.query('SELECT pg_terminate_backend($1) AS terminated', [pid]);
      expect(terminated).toBe(true);
      const ended = await endedOrTimedOut;
      clearTimeout(timer);
      expect(ended).toBe(true);
    } finally {
      client.release(new Error('ended by the server'));
    }
    expect(await t.dataSource.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect((await fetch(`${t.baseUrl}/health`)).status).toBe(200);
  });
});
