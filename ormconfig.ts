import { DataSource } from 'typeorm';
import { loadServiceConfig, openServiceDatabase } from './src/bootstrap/scheme-manifests.js';

/**
 * The DataSource for tooling (`npm run migration:run`, `npm run migration:revert`), built from the same
 * validated configuration as the service: DATABASE_URL, or the embedded database under DATA_DIR.
 */
export async function createToolingDataSource(): Promise<{ dataSource: DataSource; close(): Promise<void> }> {
  const handle = await openServiceDatabase(loadServiceConfig(process.env).database);
  const dataSource = new DataSource({ ...handle.options, migrationsRun: false });
  return {
    dataSource,
    close: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      await handle.close();
    },
  };
}
