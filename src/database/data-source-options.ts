import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/load-config.js';
import { openEmbedded } from './embedded-template.js';
import { inOrder } from './migrations/index.js';
import { SelfListeningClient } from './self-listening-client.js';

export const DATABASE_HANDLE = Symbol('DATABASE_HANDLE');

export interface DatabaseHandle {
  options: DataSourceOptions;
  /** One connection in this process (the embedded database): nothing else shares its locks. */
  singleSession: boolean;
  /** Called once the migrations ran (a new embedded database keeps itself as the template of the next). */
  afterMigrations?: () => Promise<void>;
  /** Releases what the options hold outside TypeORM (the embedded engine); call after DataSource.destroy(). */
  close(): Promise<void>;
  /**
   * The embedded engine's own LISTEN (its one session, in this process): `onNotification` for each NOTIFY on
   * `channel` once its transaction commits; resolves to what stops listening. Absent on PostgreSQL, where a
   * listener holds a connection of its own (NotificationListener).
   */
  listen?: (channel: string, onNotification: (payload: string) => void) => Promise<() => Promise<void>>;
}

/** A migration class, as TypeORM takes it. */
export type MigrationClass = new () => object;

const common = {
  type: 'postgres' as const,
  // Run by DatabaseModule under an advisory lock (runMigrationsLocked), not by TypeORM's initialize, which takes none.
  migrationsRun: false,
  synchronize: false,
  // gen_random_uuid() is built into PostgreSQL 13+ and PGlite: no extension to install.
  installExtensions: false,
  logging: false,
};

/**
 * Same entities, same migrations, two engines: a real PostgreSQL through DATABASE_URL, or PGlite
 * (PostgreSQL compiled to WASM) embedded in the process, reached through the stock `pg` driver via
 * PGlite's node-postgres connection so that TypeORM runs the exact same SQL on both. `migrations`: the core's and
 * every scheme's (src/bootstrap/scheme-manifests.ts, SERVICE_MIGRATIONS), run in the order of their timestamps.
 */
export async function openDatabase(config: DatabaseConfig, migrations: MigrationClass[]): Promise<DatabaseHandle> {
  const ordered = inOrder(migrations);
  if (config.kind === 'postgres') {
    return {
      options: { ...common, migrations: ordered, url: config.url, poolSize: 10, extra: { Client: SelfListeningClient } },
      singleSession: false,
      close: async () => undefined,
    };
  }
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  const { pglite, saveAsTemplate } = await openEmbedded(
    config.dir,
    ordered.map((m) => m.name),
  );
  const pgConfig = createPgConfig(pglite);
  return {
    options: {
      ...common,
      migrations: ordered,
      host: pgConfig.host,
      port: pgConfig.port,
      username: pgConfig.user,
      password: pgConfig.password,
      database: pgConfig.database,
      // PGlite is single-connection: one pooled client that never idles out.
      extra: { connection: pgConfig.connection, max: 1, idleTimeoutMillis: 0 },
    },
    singleSession: true,
    afterMigrations: saveAsTemplate,
    close: () => pglite.close(),
    listen: (channel, onNotification) => pglite.listen(channel, onNotification),
  };
}
