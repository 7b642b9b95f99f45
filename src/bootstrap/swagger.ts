import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { SWAGGER_PATH } from '../common/http/openapi-paths.js';
import { SECURITY_SCHEMES } from '../common/http/security-schemes.js';
import { documentHead } from '../common/pages/layout.js';
import { addMissingExamples } from './openapi-examples.js';

export { SWAGGER_PATH };

/** Swagger UI's page as swagger-ui-dist's own index, with a viewport for phones and our icon; assets from Nest's route. */
const SWAGGER_UI_HTML = `<!DOCTYPE html>
<html lang="en">
<head>
${documentHead('Identity broker: admin API').html}
<link rel="stylesheet" href="/${SWAGGER_PATH}/swagger-ui.css">
<style>html{box-sizing:border-box;overflow-y:scroll}*,*:before,*:after{box-sizing:inherit}body{margin:0;background:#fafafa}.swagger-ui .topbar .download-url-wrapper{display:none}</style>
</head>
<body>
<div id="swagger-ui"></div>
<script src="/${SWAGGER_PATH}/swagger-ui-bundle.js"></script>
<script src="/${SWAGGER_PATH}/swagger-ui-standalone-preset.js"></script>
<script src="/${SWAGGER_PATH}/swagger-ui-init.js"></script>
</body>
</html>
`;

/** Swagger UI for support staff and integrators; *Authorize* takes an admin token, merchant credentials or an app session token. */
export function mountSwagger(app: INestApplication, baseUrl: string): void {
  // Our page for Swagger UI, registered before Nest's (the first route that matches answers): Nest's template has no
  // viewport meta tag, so a phone laid it out 980 pixels wide, and no way to add one. Its assets, the init script and
  // the document stay Nest's, at the same addresses.
  const http = app.getHttpAdapter();
  for (const path of [`/${SWAGGER_PATH}`, `/${SWAGGER_PATH}/`, `/${SWAGGER_PATH}/index.html`]) {
    http.get(path, (_req: unknown, res: { type(t: string): { send(body: string): void } }) => res.type('text/html; charset=utf-8').send(SWAGGER_UI_HTML));
  }
  // Built on the first request for it (Swagger UI or openapi.json), not at start-up: scanning every controller and
  // DTO is work that only the docs need, done before the port opened (under 0.1 s of CPU, more on a busy machine).
  // The routes and the document are the same either way.
  SwaggerModule.setup(SWAGGER_PATH, app, () => buildDocument(app, baseUrl), { jsonDocumentUrl: `${SWAGGER_PATH}/openapi.json` });
}

function buildDocument(app: INestApplication, baseUrl: string): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Identity broker')
      .setDescription(
        'Admin API (merchant registration, admin tokens, audit trail) and service endpoints. ' +
          'Authorize with an admin token: the `admin` role may change, the `support` role may only read. ' +
          'Merchant endpoints take HTTP Basic with client_id and client_secret; the verifier app API its session token.',
      )
      .setVersion('1.0')
      .addServer(baseUrl)
      .addBearerAuth(
        {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'opaque',
          description: 'Operators: an admin API token (ADMIN_API_TOKEN, or one made with POST /admin/v1/tokens), for /admin/v1/*',
        },
        SECURITY_SCHEMES.ADMIN,
      )
      .addBasicAuth(
        {
          type: 'http',
          scheme: 'basic',
          description: 'Merchants: client_id and client_secret (spec 5.2), for token invalidation (DELETE /oidc/token) and auth files',
        },
        SECURITY_SCHEMES.MERCHANT_BASIC,
      )
      .addBearerAuth(
        {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'opaque',
          description: 'The verifier app: the session_token of POST /app/v1/sessions, for /app/v1/session/*',
        },
        SECURITY_SCHEMES.APP_SESSION,
      )
      .build(),
  );
  addMissingExamples(document);
  return document;
}
