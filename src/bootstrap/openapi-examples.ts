import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * Examples for the OpenAPI document, by field name (`Schema.field` where one name means different
 * things in different schemas). The DTOs' own `example`s win; these fill in the rest in one place, so
 * every request and response property and every parameter shows one in Swagger UI. An enum without an
 * entry here shows its default, else its first value.
 */
const EXAMPLES: Record<string, unknown> = {
  // merchants (RFC 7591 names)
  client_id: 'm_3fK9xQ2LpZ7tW1aB',
  clientId: 'm_3fK9xQ2LpZ7tW1aB',
  client_secret: 'q7V0mX3c9Rk2PzL8sW4tY6uB1nE5aD0fG2hJ4kM6oQ8',
  name: 'Example Shop',
  redirect_uris: ['https://shop.example/callback'],
  request_uris: ['https://shop.example/requests/'],
  post_logout_redirect_uris: ['https://shop.example/logged-out'],
  scope: 'openid profile ssn',
  // A merchant limited to one scheme: an upstream one, as an operator would name it (docs/upstream-oidc.md).
  eid_schemes: ['bankid-no'],
  psd2: false,
  security_profile: 'default',
  dpop_bound_access_tokens: true,
  require_signed_request_object: false,
  response_modes: null,
  token_endpoint_auth_method: 'client_secret_basic',
  id_token_signed_response_alg: 'RS256',
  id_token_encrypted_response_alg: 'RSA-OAEP-256',
  id_token_encrypted_response_enc: 'A256GCM',
  userinfo_encrypted_response_alg: 'RSA-OAEP-256',
  userinfo_encrypted_response_enc: 'A256GCM',
  request_object_signing_alg: 'RS256',
  backchannel_token_delivery_mode: 'poll',
  backchannel_authentication_request_signing_alg: 'ES256',
  jwks_uri: 'https://shop.example/jwks.json',
  jwks: { keys: [{ kty: 'RSA', kid: 'shop-2026', use: 'enc', e: 'AQAB', n: '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbf…' }] },
  keys: [
    {
      kty: 'RSA',
      kid: 'shop-2026',
      use: 'enc',
      e: 'AQAB',
      n: '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw',
    },
  ],
  encryption_key_id: 'shop-2026',
  request_object_key_id: 'shop-2026',
  backchannel_client_notification_endpoint: 'https://shop.example/ciba/notify',
  enabled: true,
  secret_rotated_at: '2026-11-02T09:15:00.000Z',
  created_at: '2026-11-02T09:15:00.000Z',
  updated_at: '2026-11-20T14:03:27.000Z',
  // CIBA apps a merchant provisioned
  appId: 'app-3f9c2a',
  bound_at: '2026-11-02T09:15:00.000Z',
  // paging, audit, tokens
  page: 1,
  per_page: 20,
  total: 42,
  id: '6f1c2a9e-2b1f-4b44-9d58-0c6f1c0f7a11',
  target_id: 'm_3fK9xQ2LpZ7tW1aB',
  token: 'Zm9vYmFyYmF6cXV4LWFjY2Vzcy10b2tlbi1leGFtcGxl',
  retire_at: '2026-11-24T09:15:00.000Z',
  signs_from: '2026-11-23T09:15:00.000Z',
  // verifier app API
  qr_token: 'k2VdQ8sLx0pR4mT7yN1bC6hF',
  session_token: 'S3ss10n-t0k3n_4Ap9LmQ2xR7vW0zY5bN8cD1fG3hJ6k',
  expires_at: '2026-11-23T09:25:00.000Z',
  show_document_list: true,
  binding_message: 'ABC-123',
  transaction_text: { type: 'text', content: 'Pay 100 NOK to Example Shop' },
  challenge: '1f2e3d4c5b6a7988',
  signature: 'MEUCIQDx1o7iS0b9mB2mTjz3oN1hq8w0Qp0gkq4L8aGm1X0V2wIgP9x0r7m0n8Uq3Ck9sN8mYzDq3lX4vW0bT1r2c3d4e5Y=',
  response_apdu: 'hwkBNzmcmB0hn3CZAhCOCJ1u9SBrM+uJkAA=',
  key_id: 1,
  sod: 'd4IGGDCCBhQGCSqGSIb3DQEHAqCCBgUwggYBAgEDMQ8wDQYJYIZIAWUDBAIBBQA…',
  data_groups: { '1': 'YV9fX18AX0Y…', '2': 'dYIGUX9hggZM…', '14': 'boIBRjCCAUI…', '15': 'b4IBJjCCASI…' },
  received: true,
  challenge_id: '7d3b1c2a-5e4f-4a6b-8c9d-0e1f2a3b4c5d',
  image: '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/…',
  captured_at: '2026-11-23T09:16:04.512Z',
  result_explanation: ['STATUS_BAD_FACEMATCH'],
  facematch_level: 8,
  face_image: '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/…',
  active_authentication_key: 'MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg…',
  mrz: 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10',
};

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; items?: Schema; enum?: unknown[]; default?: unknown; example?: unknown };

/** A property that only points at another schema gets its examples there ($ref siblings are ignored by OpenAPI 3.0). */
const isReference = (p: Schema) => '$ref' in p || (Array.isArray(p.allOf) && p.allOf.length === 1) || Boolean(p.items && '$ref' in p.items);

function exampleFor(schemaName: string, field: string, property: Schema): unknown {
  const named = EXAMPLES[`${schemaName}.${field}`] ?? EXAMPLES[field];
  if (named !== undefined) return named;
  const values = property.enum ?? property.items?.enum;
  if (values?.length) {
    const one = property.default ?? values[0];
    return property.type === 'array' ? [one] : one;
  }
  return undefined;
}

function fillSchema(schemaName: string, schema: Schema): void {
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    if (property.example === undefined && !isReference(property)) {
      const example = exampleFor(schemaName, field, property);
      if (example !== undefined) property.example = example;
    }
    if (property.properties) fillSchema(schemaName, property);
  }
}

/** Fills in missing examples of component schemas and operation parameters. */
export function addMissingExamples(document: OpenAPIObject): void {
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) fillSchema(name, schema as Schema);
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations) as { parameters?: { name: string; example?: unknown; schema?: Schema }[] }[]) {
      for (const parameter of operation?.parameters ?? []) {
        if (parameter.example !== undefined || parameter.schema?.example !== undefined) continue;
        const example = exampleFor('', parameter.name, parameter.schema ?? {});
        if (example !== undefined) parameter.example = example;
      }
    }
  }
}
