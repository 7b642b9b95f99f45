import { type DynamicModule, Global, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AdminModule } from '../../src/admin/admin.module.js';
import { ClockModule } from '../../src/common/clock.js';
import { CryptoModule } from '../../src/common/crypto/crypto.module.js';
import { AppExceptionFilter } from '../../src/common/errors/app-exception.filter.js';
import { useErrorRoutes } from '../../src/common/errors/error-routes.js';
import { serviceErrorRoutes } from '../../src/bootstrap/error-pages.js';
import { setLogLevel } from '../../src/common/logging/logger.js';
import { requestIdMiddleware } from '../../src/common/logging/request-context.js';
import { createValidationPipe } from '../../src/common/http/validation.js';
import { APP_CONFIG, type AppConfig } from '../../src/config/load-config.js';
import { loadServiceConfig, openServiceDatabase } from '../../src/bootstrap/scheme-manifests.js';
import { DatabaseModule } from '../../src/database/database.module.js';
import { ISSUER_STATE_CONTROLLERS, ISSUER_STATE_ENTITIES, ISSUER_STATE_PROVIDERS } from '../../src/credential-issuer/issuer-state.js';
import { CredentialIssuanceEntity } from '../../src/credential-issuer/issuances/credential-issuance.entity.js';
import { CredentialIssuancesService } from '../../src/credential-issuer/issuances/credential-issuances.service.js';
import { freePort } from './free-port.js';
import { createTestDatabase } from './test-database.js';

@Global()
@Module({})
class TestConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: TestConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
  }
}

// The person's revocation page also burns offers not yet issued: the issuances (the issuer's module has them) come along.
@Module({
  imports: [TypeOrmModule.forFeature([...ISSUER_STATE_ENTITIES, CredentialIssuanceEntity]), AdminModule],
  providers: [...ISSUER_STATE_PROVIDERS, CredentialIssuancesService],
  controllers: ISSUER_STATE_CONTROLLERS,
})
class IssuerStateTestModule {}

export interface IssuerStateApp {
  app: INestApplication;
  config: AppConfig;
  /** The configured BASE_URL (a second instance keeps the first one's, as instances behind one name do). */
  baseUrl: string;
  /** Where this instance listens. */
  origin: string;
  adminToken: string;
  dataSource: DataSource;
  env: Record<string, string | undefined>;
  close(): Promise<void>;
}

/**
 * The credential issuer's state parts (src/credential-issuer/issuer-state.ts) in an application of their own, with what
 * they need of the service (config, database and migrations, sealing, the admin guard and audit), on a fresh
 * database (PostgreSQL with DATABASE_URL, else or with `embedded` PGlite in memory); `sameDatabaseAs` starts a second
 * instance on the first one's database and secrets.
 */
export async function startIssuerStateApp(
  options: { env?: Record<string, string>; sameDatabaseAs?: IssuerStateApp; embedded?: boolean } = {},
): Promise<IssuerStateApp> {
  const first = options.sameDatabaseAs;
  const database = first ? { url: first.env.DATABASE_URL, drop: async () => undefined } : await createTestDatabase(options.embedded);
  const dataDir = mkdtempSync(join(tmpdir(), 'vci-state-'));
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    APP_ENV: 'customer-test',
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: database.url,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    COOKIE_KEYS: randomBytes(32).toString('base64url'),
    SUBJECT_SECRET: randomBytes(32).toString('base64url'),
    PAIRWISE_SECRET: randomBytes(32).toString('base64url'),
    ADMIN_API_TOKEN: randomBytes(24).toString('base64url'),
    LOG_LEVEL: 'silent',
    ...(first && { ...first.env, PORT: String(port) }),
    ...options.env,
    DATA_DIR: dataDir,
  };
  const config = loadServiceConfig(env);
  setLogLevel(config.logLevel);
  if (!database.url) (config as { database: AppConfig['database'] }).database = { kind: 'embedded', dir: 'memory://' };
  const handle = await openServiceDatabase(config.database);
  @Module({ imports: [TestConfigModule.forRoot(config), DatabaseModule.forRoot(handle), ClockModule, CryptoModule, IssuerStateTestModule] })
  class RootModule {}
  const app = await NestFactory.create(RootModule, { logger: false, abortOnError: false });
  app.use(requestIdMiddleware);
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AppExceptionFilter());
  // As the service's assembly does: the revocation links' refusals are pages.
  useErrorRoutes(app.getHttpAdapter().getInstance(), serviceErrorRoutes(config));
  await app.listen(port, '127.0.0.1');
  return {
    app,
    config,
    baseUrl: config.baseUrl,
    origin: `http://127.0.0.1:${port}`,
    adminToken: env.ADMIN_API_TOKEN!,
    dataSource: app.get(DataSource),
    env,
    close: async () => {
      await app.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
