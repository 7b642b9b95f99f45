import type { DynamicModule, Type } from '@nestjs/common';
import type { SchemeManifest } from '../broker/spi/scheme-manifest.js';
import { type AppConfig, type DatabaseConfig, loadConfig } from '../config/load-config.js';
import { type DatabaseHandle, openDatabase } from '../database/data-source-options.js';
import { CORE_MIGRATIONS, inOrder } from '../database/migrations/index.js';
import * as listed from '../schemes/index.js';

/** Every scheme's manifest (src/schemes/index.ts lists them), in their order. */
export const SCHEME_MANIFESTS: readonly SchemeManifest[] = Object.values(listed).sort((a, b) => a.order - b.order);

/** The manifests of the schemes this deployment runs. */
export function enabledSchemes(config: AppConfig): SchemeManifest[] {
  return SCHEME_MANIFESTS.filter((scheme) => scheme.enabled?.(config) ?? true);
}

/** The Nest modules of the schemes this deployment runs (each imported only now). */
export function schemeModules(config: AppConfig): Promise<(Type | DynamicModule)[]> {
  return Promise.all(enabledSchemes(config).map((scheme) => scheme.module()));
}

/** The core's migrations and every listed scheme's (enabled or not: a table stays as its migrations left it). */
export const SERVICE_MIGRATIONS = inOrder([...CORE_MIGRATIONS, ...SCHEME_MANIFESTS.flatMap((scheme) => scheme.migrations ?? [])]);

/** The service's database with every migration (main.ts, createApp, ormconfig.ts, tests). */
export function openServiceDatabase(config: DatabaseConfig): Promise<DatabaseHandle> {
  return openDatabase(config, SERVICE_MIGRATIONS);
}

/** The service's configuration: the core's and every listed scheme's section (main.ts, ormconfig.ts, the tests' apps). */
export function loadServiceConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  return loadConfig(
    env,
    SCHEME_MANIFESTS.flatMap((scheme) => (scheme.config ? [{ name: scheme.name, load: scheme.config }] : [])),
  );
}
