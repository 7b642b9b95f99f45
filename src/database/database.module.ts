import { type DynamicModule, Global, Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DATABASE_HANDLE, type DatabaseHandle } from './data-source-options.js';
import { DatabasePing } from './database-ping.js';
import { ExclusiveJobs } from './exclusive-jobs.js';
import { guardTransactions } from './transaction-guard.js';

@Injectable()
class DatabaseLifecycle implements OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(DATABASE_HANDLE) private readonly handle: DatabaseHandle,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.handle.close();
  }
}

/** Provides the one TypeORM DataSource (migrations run when it initialises: migrationsRun) and the jobs' locks. */
@Global()
export class DatabaseModule {
  static forRoot(handle: DatabaseHandle): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DATABASE_HANDLE, useValue: handle },
        {
          provide: DataSource,
          useFactory: async () => {
            const dataSource = await new DataSource(handle.options).initialize();
            await handle.afterMigrations?.();
            guardTransactions(dataSource);
            return dataSource;
          },
        },
        DatabaseLifecycle,
        ExclusiveJobs,
        DatabasePing,
      ],
      exports: [DataSource, ExclusiveJobs, DatabasePing, DATABASE_HANDLE],
    };
  }
}
