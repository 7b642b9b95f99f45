import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { text } from 'express';
import helmet from 'helmet';
import { AdminTokensService } from '../admin/admin-tokens.service.js';
import { AppModule } from '../app.module.js';
import { AppExceptionFilter } from '../common/errors/app-exception.filter.js';
import { useErrorShapes } from '../common/errors/route-error-shapes.js';
import { useErrorRoutes } from '../common/errors/error-routes.js';
import { serviceErrorRoutes } from './error-pages.js';
import { authFilesErrorShape } from '../auth-files/auth-files.errors.js';
import { refuseUnboundedBody } from '../common/http/json-bounds.js';
import { refuseCharactersInParsedBody } from '../common/http/refuse-characters.middleware.js';
import { createValidationPipe } from '../common/http/validation.js';
import { accessLogMiddleware } from '../common/logging/access-log.middleware.js';
import { JsonNestLogger, setLogLevel } from '../common/logging/logger.js';
import { requestIdMiddleware } from '../common/logging/request-context.js';
import type { AppConfig } from '../config/load-config.js';
import type { DatabaseHandle } from '../database/data-source-options.js';
import { OidcProviderService } from '../oidc/provider/oidc-provider.service.js';
import { UnfinishedBodies } from '../ops/per-client/unfinished-bodies.js';
import { RateLimiter } from '../ops/rate-limit/rate-limiter.service.js';
import { MAX_SOAP_REQUEST_BYTES } from '../saml/artifact/soap-request.js';
import { SAML_PATHS } from '../saml/saml-entity.js';
import { SamlSsoService } from '../saml/sso/saml-sso.service.js';
import { samlSignOnRoute } from '../saml/sso/saml-sign-on.route.js';
import { BoundedExpressAdapter } from './bounded-http-server.js';
import { serveEngineRoutesFirst } from './engine-light-path.js';
import { noStoreOnBrokerPages, refuseBadCharacters } from './edge-guards.js';
import { useJsonBodyParsers, useSchemesBeforeBody } from './json-body-limits.js';
import { enabledSchemes, openServiceDatabase, schemeModules } from './scheme-manifests.js';
import { mountSwagger } from './swagger.js';

export interface StartedApp {
  app: INestApplication;
  /** Set on the first start without ADMIN_API_TOKEN: print it once, it is never shown again. */
  initialAdminToken?: string;
}

/**
 * Builds the whole service (used by main.ts and by the end-to-end tests alike). `opening`: the database
 * already being opened (main.ts starts that before loading the rest of the code, which it overlaps).
 * `extraModules`: tests only, modules of their own beside the service's (main.ts passes none).
 */
export async function createApp(
  config: AppConfig,
  opening?: Promise<DatabaseHandle>,
  extraModules: Parameters<typeof AppModule.forRoot>[3] = [],
): Promise<StartedApp> {
  setLogLevel(config.logLevel);
  const [database, schemes] = await Promise.all([opening ?? openServiceDatabase(config.database), schemeModules(config)]);
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, database, schemes, extraModules),
    new BoundedExpressAdapter(config.ops.http),
    {
      logger: new JsonNestLogger(),
      bodyParser: false,
      // Start-up errors are thrown to the caller (main prints them and exits; tests see them).
      abortOnError: false,
    },
  );
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  // What every request passes before its handler, in this order; the engine's routes pass only this (engine-light-path.ts).
  const edge = [
    requestIdMiddleware,
    accessLogMiddleware,
    helmet({
      contentSecurityPolicy: {
        directives: {
          // Swagger UI needs inline styles; scripts stay same-origin only.
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:'],
          'form-action': null,
          // Over plain http (customer-test on localhost) upgrading would break every asset.
          'upgrade-insecure-requests': config.baseUrl.startsWith('https://') ? [] : null,
        },
      },
      hsts: config.isProduction,
    }),
    noStoreOnBrokerPages,
    // Before anything waits for a body: what one client address may hold with bodies it has not finished sending.
    app.get(UnfinishedBodies).middleware(),
    // Bad input is refused before anything parses or stores it (the engine included); see README.
    refuseBadCharacters(),
    // Rate limits before the engine and the SAML front door (they answer these paths); after refuseBadCharacters, which
    // has buffered the engine's bodies, so the merchant is read from the body without reading the stream again.
    app.get(RateLimiter).middleware(),
    // SAML requests share the authorization endpoint's path; the SAML front door answers them (a brokered login
    // started through the core, and a redirect), every other request there goes on to the engine.
    samlSignOnRoute(app.get(SamlSsoService)),
    // oidc-provider reads its own request bodies, so it sits before Nest's body parsers.
    app.get(OidcProviderService).middleware(),
  ];
  app.use(...edge);
  // SAML artifact resolution is SOAP 1.1 (text/xml), read as text and parsed by its own bounded, DTD-free reader.
  app.use(SAML_PATHS.artifactResolution, text({ type: 'text/xml', limit: MAX_SOAP_REQUEST_BYTES }));
  // What the schemes put before the body parsers (say a refusal from the headers, before a body is read).
  const running = enabledSchemes(config);
  await useSchemesBeforeBody(app, running);
  // The schemes' body limits (per path: an upload of megabytes, a wallet's large form), then the core's small ones.
  useJsonBodyParsers(app, running);
  app.useBodyParser('urlencoded', { limit: '64kb', extended: false });
  // Before validation, whose cost grows with the square of an object's keys: bound the parsed body, then its text.
  app.use(refuseUnboundedBody, refuseCharactersInParsedBody);
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AppExceptionFilter());
  // Errors raised before an auth-files operation runs (body parser, NUL check, routing) leave in its shape too.
  useErrorShapes(app.getHttpAdapter().getInstance(), new Map([['/auth_files/', authFilesErrorShape]]));
  // Which errors are pages (and in which site's shell), which SOAP faults; error-renderer.ts answers every error.
  useErrorRoutes(app.getHttpAdapter().getInstance(), serviceErrorRoutes(config));
  // No enableShutdownHooks: main.ts installs the graceful shutdown (src/ops), which drains before closing.
  mountSwagger(app, config.baseUrl);
  await app.init();
  serveEngineRoutesFirst(app, edge);
  const initialAdminToken = await app.get(AdminTokensService).ensureInitialToken();
  return { app, initialAdminToken };
}
