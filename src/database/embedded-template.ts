import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { logger } from '../common/logging/logger.js';

export interface EmbeddedDatabase {
  pglite: PGlite;
  /** Set when the database was made from scratch: call once its migrations ran, to keep it as the template. */
  saveAsTemplate?: () => Promise<void>;
}

/**
 * initdb writes PostgreSQL's default of 128 MB of shared buffers into the data folder, and the WASM engine
 * clears all of it at every start: opening an existing folder took 1.2-1.3 s with it and 0.6-0.7 s with 16 MB,
 * and about 120 MiB less memory (README, "Start-up"). One connection on a development database never fills
 * 16 MB (2,048 pages). A command-line setting outranks postgresql.conf, so existing data folders get it too.
 */
const SMALL_SHARED_MEMORY = ['-c', 'shared_buffers=16MB'];

/**
 * A new embedded database spends about six seconds in initdb and most of a second in our migrations: the
 * same work every time. The first one made on this machine is saved once migrated (no rows: the migrations
 * insert none, and nothing else has run yet) as a tarball in the repository's .cache folder, named after the
 * PGlite version and the list of migrations; every later new database is unpacked from it in about a second.
 * A missing, stale or unwritable cache only costs the time.
 */
export async function openEmbedded(dir: string, migrationNames: string[]): Promise<EmbeddedDatabase> {
  const { PGlite } = await import('@electric-sql/pglite');
  const options = { startParams: [...PGlite.defaultStartParams, ...SMALL_SHARED_MEMORY] };
  const inMemory = dir.startsWith('memory://');
  const fresh = inMemory || !existsSync(join(dir, 'PG_VERSION'));
  if (!inMemory) mkdirSync(dir, { recursive: true });
  const template = fresh ? templatePath(migrationNames) : undefined;
  if (template && existsSync(template)) {
    try {
      return { pglite: await PGlite.create(dir, { ...options, loadDataDir: new Blob([readFileSync(template)]) }) };
    } catch (err) {
      logger.warn({ err }, 'embedded database template unusable, creating the database from scratch');
      if (!inMemory) for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
    }
  }
  const pglite = await PGlite.create(dir, options);
  return { pglite, saveAsTemplate: template ? () => saveTemplate(pglite, template) : undefined };
}

async function saveTemplate(pglite: PGlite, file: string): Promise<void> {
  try {
    const tarball = Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer());
    const folder = dirname(file);
    mkdirSync(folder, { recursive: true });
    // Written aside then renamed: a concurrent start never reads half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, tarball);
    renameSync(partial, file);
    // Templates of older versions or migration lists are never read again.
    for (const name of readdirSync(folder))
      if (name.startsWith('pglite-') && join(folder, name) !== file && !name.endsWith('.partial')) rmSync(join(folder, name), { force: true });
  } catch (err) {
    logger.debug({ err }, 'embedded database template not saved');
  }
}

/** <repository>/.cache/pglite-<version>-<migrations hash>.tar, or undefined when the version cannot be told. */
function templatePath(migrationNames: string[]): string | undefined {
  try {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const packageDir = entry.slice(0, entry.lastIndexOf('/dist/'));
    const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
    const migrations = createHash('sha256').update(migrationNames.join('\n')).digest('hex').slice(0, 12);
    let root = dirname(fileURLToPath(import.meta.url));
    while (!existsSync(join(root, 'package.json')) && dirname(root) !== root) root = dirname(root);
    return join(root, '.cache', `pglite-${version}-${migrations}.tar`);
  } catch {
    return undefined;
  }
}
