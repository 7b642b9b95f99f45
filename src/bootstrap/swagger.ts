import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

export const SWAGGER_PATH = 'admin/docs';

/** Swagger UI for support staff and integrators, with a bearer field for the admin token. */
export function mountSwagger(app: INestApplication, baseUrl: string): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Identity broker')
      .setDescription(
        'Admin API (merchant registration, admin tokens, audit trail) and service endpoints. ' +
          'Authorize with an admin token: the `admin` role may change, the `support` role may only read.',
      )
      .setVersion('1.0')
      .addServer(baseUrl)
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'admin API token' }, 'admin-token')
      .build(),
  );
  SwaggerModule.setup(SWAGGER_PATH, app, document, { jsonDocumentUrl: `${SWAGGER_PATH}/openapi.json` });
}
