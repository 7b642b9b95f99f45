import { type DynamicModule, Global, Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { DATABASE_HANDLE, type DatabaseHandle } from './data-source-options.js';
import { DatabasePing } from './database-ping.js';
import { ExclusiveJobs } from './exclusive-jobs.js';
import { NotificationListeners } from './notification-listener.js';
import { guardTransactions } from './transaction-guard.js';
import { runMigrationsLocked } from './locked-migrations.js';

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

/**
 * Provides the one TypeORM DataSource (the migrations run as it opens, under an advisory lock), the jobs' locks and
 * the notification listeners.
 * Each module registers the entities it owns (`TypeOrmModule.forFeature`); they are collected here
 * (`autoLoadEntities`), so this module imports no application code. A database that cannot be reached fails the
 * start at once (no retries: an orchestrator restarts the instance, and a person sees the error now).
 */
@Global()
export class DatabaseModule {
  static forRoot(handle: DatabaseHandle): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({ ...handle.options, autoLoadEntities: true, toRetry: () => false }),
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options as DataSourceOptions).initialize();
            await runMigrationsLocked(dataSource);
            await handle.afterMigrations?.();
            guardTransactions(dataSource);
            return dataSource;
          },
        }),
      ],
      providers: [{ provide: DATABASE_HANDLE, useValue: handle }, DatabaseLifecycle, ExclusiveJobs, DatabasePing, NotificationListeners],
      exports: [ExclusiveJobs, DatabasePing, NotificationListeners, DATABASE_HANDLE],
    };
  }
}
