import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * With DATABASE_URL (CI), each test app gets its own fresh database on that server so that test files
 * can run in parallel and migrations run from scratch; without it, an in-memory embedded database.
 */
export async function createTestDatabase(forceEmbedded = false, server?: string): Promise<{ url?: string; drop(): Promise<void> }> {
  const serverUrl = server ?? process.env.DATABASE_URL;
  if (!serverUrl || forceEmbedded) return { url: undefined, drop: async () => undefined };
  const name = `broker_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
