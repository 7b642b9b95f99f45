/**
 * The OpenAPI security schemes operations name (declared in src/bootstrap/swagger.ts). `basic` and
 * `bearer` are the names Nest's @ApiBasicAuth() and @ApiBearerAuth() use without an argument: merchant
 * credentials (spec 5.2: DELETE /oidc/token, later CIBA and auth-files) and the verifier app's session
 * token. The admin API names `admin-token`.
 */
export const SECURITY_SCHEMES = {
  ADMIN: 'admin-token',
  MERCHANT_BASIC: 'basic',
  APP_SESSION: 'bearer',
} as const;
