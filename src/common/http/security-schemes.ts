/**
 * The OpenAPI security schemes operations name (declared in src/bootstrap/swagger.ts, in this order: Swagger UI's
 * Authorize dialog lists them so, and an operator opening it meets the admin token first). Each is named for who
 * uses it, so that a token pasted in the dialog goes to the scheme it belongs to: the admin API's token, a
 * merchant's client credentials (spec 5.2: DELETE /oidc/token, CIBA, auth files) and the verifier app's session
 * token. Operations name them explicitly: Nest's @ApiBearerAuth() and @ApiBasicAuth() without an argument would name
 * schemes that are not declared.
 */
export const SECURITY_SCHEMES = {
  ADMIN: 'admin-api-token',
  MERCHANT_BASIC: 'merchant-client-credentials',
  APP_SESSION: 'verifier-app-session',
} as const;
