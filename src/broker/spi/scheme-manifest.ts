import type { DynamicModule, Type } from '@nestjs/common';
import type { RequestHandler } from 'express';
import type { AppConfig, ConfigSection } from '../../config/load-config.js';
import type { RateLimitBucket } from '../../config/ops-config.js';
import type { MigrationClass } from '../../database/data-source-options.js';

/**
 * A body parser a scheme's routes need beyond the core's (256 KiB of JSON, 64 KiB of form): the core mounts it on
 * `path` before its own, most specific first. `bounded-json` refuses by the declared length and stops reading at the
 * limit (for routes anyone on the internet may send megabytes to); `json` and `urlencoded` are Express's.
 */
export type SchemeBodyLimit =
  { path: string; kind: 'json' | 'bounded-json'; bytes: number } | { path: string; kind: 'urlencoded'; bytes: number; parameterLimit: number };

/**
 * A rate limit a scheme's routes count against (docs/operations.md, "Rate limits"), besides the core's: the requests
 * whose path starts with `prefix` (or is one of `paths`), of `method` when given, counted per client address (`ip`)
 * or per bearer token (`bearer`; a request without one is not counted here); a refusal is answered by the error
 * renderer, in the way of the route (docs/operations.md, "Errors").
 */
export interface SchemeRateLimit {
  prefix?: string;
  paths?: string[];
  method?: 'POST';
  bucket: RateLimitBucket;
  per: 'ip' | 'bearer';
}

/** Express middleware a scheme puts before the body parsers on `path`, made from its own providers once they exist. */
export interface SchemeBeforeBody {
  path: string;
  middleware(get: <T>(type: new (...args: never[]) => T) => T): Promise<RequestHandler>;
}

/**
 * What a scheme declares about itself in its own folder (`src/schemes/<scheme>/<scheme>.manifest.ts`), for the core
 * to collect: the one line that lists it (`src/schemes/index.ts`) is the only place outside its folder that names
 * it (docs/architecture.md, "Adding a scheme"). The manifest is data, cheap to load: the start reads it before Nest
 * (configuration, migrations), so the scheme's Nest module is imported only when `module()` is called.
 */
export interface SchemeManifest {
  /** The scheme's folder name, for messages and the order of its texts. */
  name: string;
  /** Where its module goes among the schemes' (lowest first); the choice page orders by `@EidScheme({ order })`. */
  order: number;
  /** Whether this deployment runs it (say customer-test only, or only once configured); default: always. */
  enabled?(config: AppConfig): boolean;
  module(): Promise<Type | DynamicModule>;
  /** Its part of the configuration: its own variables, parsed and checked at start (a ConfigError names each problem). */
  config?: ConfigSection['load'];
  /** Its tables' migrations; each keeps its class name and timestamp wherever its file lives. */
  migrations?: MigrationClass[];
  http?: { bodyLimits?: SchemeBodyLimit[]; beforeBody?: SchemeBeforeBody[]; rateLimits?: SchemeRateLimit[] };
}
