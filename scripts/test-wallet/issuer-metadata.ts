/**
 * The issuer's and its authorization server's metadata, read as a wallet reads them: at the well-known URL with the
 * well-known segment inserted before the identifier's path (OpenID4VCI 1.0 §12.2.2, RFC 8414 §3.1), and checked
 * to name the identifier it was fetched for (1.0 §12.2, RFC 8414 §3.3).
 */
import { checkIssuerUrl } from './credential-offer.js';
import { expectObject, isObject, request, type Fetch } from './http-json.js';

export interface CredentialConfiguration {
  format: string;
  vct?: string;
  proof_types_supported?: Record<string, { proof_signing_alg_values_supported?: string[] }>;
  [name: string]: unknown;
}

export interface IssuerMetadata {
  credential_issuer: string;
  credential_endpoint: string;
  nonce_endpoint?: string;
  authorization_servers?: string[];
  batch_credential_issuance?: { batch_size: number };
  credential_configurations_supported: Record<string, CredentialConfiguration>;
}

export interface AuthorizationServerMetadata {
  issuer: string;
  token_endpoint: string;
  dpop_signing_alg_values_supported?: string[];
  /** RFC 8414 §2, for the Authorization Code flow (authorization.ts checks them). */
  authorization_endpoint?: string;
  response_types_supported?: string[];
  code_challenge_methods_supported?: string[];
  /** RFC 9207 §3: the server puts `iss` in its authorization responses. */
  authorization_response_iss_parameter_supported?: boolean;
}

/** `{origin}/.well-known/{name}{path}`: the identifier's path (without a trailing slash) goes after the well-known name. */
export function wellKnownUrl(identifier: string, name: string): string {
  const url = new URL(identifier);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}/.well-known/${name}${path}`;
}

const endpoint = (value: unknown, what: string): string => checkIssuerUrl(value, what);

/** 1.0 §12.2: the Credential Issuer Metadata, whose credential_issuer must be the offer's. */
export async function fetchIssuerMetadata(credentialIssuer: string, fetchImpl: Fetch): Promise<IssuerMetadata> {
  const url = wellKnownUrl(credentialIssuer, 'openid-credential-issuer');
  const body = expectObject(await request(fetchImpl, 'issuer metadata', url), 'issuer metadata');
  if (body.credential_issuer !== credentialIssuer) throw new Error("issuer metadata: credential_issuer is not the offer's credential issuer");
  endpoint(body.credential_endpoint, 'issuer metadata: credential_endpoint');
  if (body.nonce_endpoint !== undefined) endpoint(body.nonce_endpoint, 'issuer metadata: nonce_endpoint');
  const servers = body.authorization_servers;
  if (servers !== undefined && (!Array.isArray(servers) || servers.length === 0))
    throw new Error('issuer metadata: authorization_servers is not a non-empty array');
  (servers as unknown[] | undefined)?.forEach((s) => checkIssuerUrl(s, 'issuer metadata: authorization_servers entry'));
  const batch = body.batch_credential_issuance;
  // §12.2: batch_size is an integer of 2 or more.
  if (batch !== undefined && (!isObject(batch) || !Number.isInteger(batch.batch_size) || (batch.batch_size as number) < 2))
    throw new Error('issuer metadata: batch_credential_issuance.batch_size is not an integer of 2 or more');
  if (!isObject(body.credential_configurations_supported)) throw new Error('issuer metadata: credential_configurations_supported is missing');
  return body as unknown as IssuerMetadata;
}

/**
 * The authorization server for the grant: the offer's grant may name one of the metadata's (1.0 §4.1.1); otherwise
 * the first listed; with none listed, the issuer is its own (§12.2).
 */
export function authorizationServerOf(metadata: IssuerMetadata, named?: string): string {
  const listed = metadata.authorization_servers;
  if (named !== undefined) {
    if (!listed?.includes(named)) throw new Error('the offer names an authorization server the issuer metadata does not list');
    return named;
  }
  return listed?.[0] ?? metadata.credential_issuer;
}

/** RFC 8414 §3: the authorization server's metadata, whose issuer must be the identifier it was fetched for (§3.3). */
export async function fetchAuthorizationServerMetadata(issuer: string, fetchImpl: Fetch): Promise<AuthorizationServerMetadata> {
  const url = wellKnownUrl(issuer, 'oauth-authorization-server');
  const body = expectObject(await request(fetchImpl, 'authorization server metadata', url), 'authorization server metadata');
  if (body.issuer !== issuer) throw new Error('authorization server metadata: issuer is not the authorization server it was fetched for');
  endpoint(body.token_endpoint, 'authorization server metadata: token_endpoint');
  const algs = body.dpop_signing_alg_values_supported;
  // RFC 9449 §5.1: the list the server accepts; this wallet signs its DPoP proofs with ES256.
  if (algs !== undefined && !(Array.isArray(algs) && algs.includes('ES256')))
    throw new Error('authorization server metadata: DPoP with ES256 is not supported');
  return body as unknown as AuthorizationServerMetadata;
}
