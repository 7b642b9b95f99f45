/** Where Swagger UI is served (its OpenAPI JSON under it): mounted by src/bootstrap/swagger.ts, linked from the base URL's page. */
export const SWAGGER_PATH = 'admin/docs';
