import module from 'node:module';
import { logger } from './common/logging/logger.js';
import { ConfigError } from './config/app-config.js';
import type { AppConfig } from './config/load-config.js';
import { loadServiceConfig, openServiceDatabase } from './bootstrap/scheme-manifests.js';

function loadConfigOrExit(): AppConfig {
  try {
    return loadServiceConfig(process.env);
  } catch (e) {
    exitOnConfigError(e);
    throw e;
  }
}

/** A bad variable, or a file it names that the start-up reads (production's trust files), is named without a stack trace. */
function exitOnConfigError(e: unknown): void {
  if (e instanceof ConfigError) {
    process.stderr.write(`${e.message}\nSee .env.example for every variable.\n`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  // The database opens while the rest of the service's code loads (a second or more of each at start-up). So that
  // it starts early (its WASM compiles on V8's background threads meanwhile), this file imports statically only
  // what opening it needs: Nest, TypeORM and the service's modules come below.
  const opening = openServiceDatabase(config.database);
  opening.catch(() => undefined); // awaited in createApp; not an unhandled rejection meanwhile
  const [{ createApp }, { SWAGGER_PATH }, { proxyMisconfiguration }, { GracefulShutdown }, { ReadinessService }] = await Promise.all([
    import('./bootstrap/create-app.js'),
    import('./bootstrap/swagger.js'),
    import('./oidc/provider/public-origin.js'),
    import('./ops/shutdown/graceful-shutdown.service.js'),
    import('./ops/health/readiness.service.js'),
    // Loaded alongside (a scheme's module graph, the face engine's, is the largest); createApp takes them from the cache.
    import('./bootstrap/scheme-manifests.js').then(({ schemeModules }) => schemeModules(config)),
  ]);
  const { app, initialAdminToken } = await createApp(config, opening);
  app.get(GracefulShutdown).installSignalHandlers(app);
  await app.listen(config.port);
  const lines = [
    `Identity broker (${config.env}) is up on ${config.database.kind === 'embedded' ? 'the embedded database' : 'PostgreSQL'}`,
    `  base URL:   ${config.baseUrl}`,
    `  start here: ${config.baseUrl}/docs`,
    `  discovery:  ${config.baseUrl}/oidc/.well-known/openid-configuration`,
    `  Swagger UI: ${config.baseUrl}/${SWAGGER_PATH}`,
    `  health:     ${config.baseUrl}/health`,
  ];
  if (config.generatedSecrets.length) lines.push(`  development secrets generated for ${config.generatedSecrets.join(', ')} (kept in ${config.dataDir})`);
  if (config.storedSecrets.length) lines.push(`  development secrets ${config.storedSecrets.join(', ')} read from ${config.dataDir}`);
  // Not fatal (health and the admin API still answer), but every login would fail: say so where it is seen.
  const proxyProblem = proxyMisconfiguration(config);
  if (proxyProblem) {
    logger.warn(proxyProblem);
    lines.push('', `  WARNING: ${proxyProblem}`);
  }
  if (initialAdminToken) lines.push('', `  Admin API token (shown once, store it now): ${initialAdminToken}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  // Load the face models now, in the background, so the first verification does not wait for them;
  // /health/ready answers 200 once they are loaded. Then the modules compiled so far are written to the compile
  // cache (npm start enables it; on Node 20 there is none) at once, not only at a clean exit: a start killed later
  // still leaves it for the next.
  void app
    .get(ReadinessService)
    .warmUp()
    .then(() => module.flushCompileCache?.());
}

main().catch((err: unknown) => {
  exitOnConfigError(err);
  logger.fatal({ err }, 'start-up failed');
  process.exit(1);
});
