/**
 * Receiving credentials over OpenID4VCI 1.0 with the Authorization Code flow (§5, §3.4), as a public client: the
 * authorization request with PKCE S256 (RFC 7636) and authorization_details of type openid_credential (§5.1.1), the
 * browser's trip through the authorization server, the redirect checked for state (RFC 6749 §10.12) and iss (RFC
 * 9207), then the code redeemed with the verifier (§6.1) and the credential request as every grant does it
 * (credential-request.ts).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { checkIssuerUrl, isLoopbackHttp } from './credential-offer.js';
import type { StoredCredential } from './credential-store.js';
import { checkBatch, checkConfiguration, redeemAndReceive } from './credential-request.js';
import type { Fetch } from './http-json.js';
import {
  authorizationServerOf,
  fetchAuthorizationServerMetadata,
  fetchIssuerMetadata,
  type AuthorizationServerMetadata,
  type IssuerMetadata,
} from './issuer-metadata.js';

export interface StartAuthorizationOptions {
  /** The credential issuer identifier, e.g. https://broker.example/vci. */
  credentialIssuer: string;
  /** The client id the operator registered for this wallet. */
  clientId: string;
  /** One of the redirect URIs registered with it, exactly. */
  redirectUri: string;
  /** The configuration to ask for; default the issuer's first dc+sd-jwt configuration. */
  configurationId?: string;
  fetch?: Fetch;
}

/** What the wallet keeps between sending the browser away and its coming back (secret: holds the verifier). */
export interface PendingAuthorization {
  /** Where to send the browser. */
  authorizationUrl: string;
  state: string;
  /** The PKCE code_verifier (RFC 7636 §4.1): 43 characters of base64url. */
  codeVerifier: string;
  credentialIssuer: string;
  /** The authorization server's issuer identifier: the `iss` the redirect must carry (RFC 9207 §2.4). */
  authorizationServer: string;
  clientId: string;
  redirectUri: string;
  configurationId: string;
}

export interface FinishAuthorizationOptions {
  started: PendingAuthorization;
  /** The URL the browser was redirected to (redirect_uri?code=…&state=…&iss=…). */
  redirectedTo: string;
  /** How many credentials to ask for (one key each); capped by the issuer's batch_size. Default 1. */
  batch?: number;
  fetch?: Fetch;
}

/** A redirect URL longer than this is not an authorization response. */
const MAX_REDIRECT_CHARS = 8 * 1024;

const base64urlSha256 = (text: string) => createHash('sha256').update(text, 'ascii').digest('base64url');

function checkRedirectUri(value: string): URL {
  if (!URL.canParse(value)) throw new Error('redirect_uri is not a URL');
  const url = new URL(value);
  // RFC 6749 §3.1.2: an absolute URI without a fragment; http only on this machine (RFC 8252 §7.3 loopback).
  if (url.hash) throw new Error('redirect_uri has a fragment');
  if (url.protocol === 'http:' && !isLoopbackHttp(url)) throw new Error('redirect_uri is http but not a loopback address');
  return url;
}

/** RFC 6749 §3.1: the authorization endpoint may have a query, never a fragment; https (http only on loopback). */
function checkAuthorizationEndpoint(as: AuthorizationServerMetadata): URL {
  const value = as.authorization_endpoint;
  if (typeof value !== 'string' || !URL.canParse(value))
    throw new Error('authorization server metadata: no authorization_endpoint (the authorization code flow is not offered)');
  const url = new URL(value);
  if (url.protocol !== 'https:' && !isLoopbackHttp(url)) throw new Error('authorization server metadata: authorization_endpoint is not an https URL');
  if (url.hash) throw new Error('authorization server metadata: authorization_endpoint has a fragment');
  if (as.response_types_supported !== undefined && !as.response_types_supported.includes('code'))
    throw new Error('authorization server metadata: response type code is not supported');
  // RFC 7636 §4.2 with RFC 8414 §2: this wallet sends S256 only (HAIP 1.0 requires it), never plain.
  if (!as.code_challenge_methods_supported?.includes('S256')) throw new Error('authorization server metadata: PKCE with S256 is not supported');
  return url;
}

function defaultConfiguration(metadata: IssuerMetadata): string {
  const id = Object.entries(metadata.credential_configurations_supported).find(([, c]) => c?.format === 'dc+sd-jwt')?.[0];
  if (id === undefined) throw new Error('issuer metadata: no dc+sd-jwt credential configuration');
  return id;
}

/** Reads the metadata and builds the authorization request (§5.1, RFC 6749 §4.1.1, RFC 7636 §4.3). */
export async function startAuthorization(options: StartAuthorizationOptions): Promise<PendingAuthorization> {
  const fetchImpl = options.fetch ?? fetch;
  const credentialIssuer = checkIssuerUrl(options.credentialIssuer, 'the credential issuer');
  if (options.clientId === '' || options.clientId.length > 255) throw new Error('client_id: 1 to 255 characters');
  checkRedirectUri(options.redirectUri);
  const metadata = await fetchIssuerMetadata(credentialIssuer, fetchImpl);
  const configurationId = options.configurationId ?? defaultConfiguration(metadata);
  checkConfiguration(metadata, configurationId);
  const authorizationServer = authorizationServerOf(metadata);
  const endpoint = checkAuthorizationEndpoint(await fetchAuthorizationServerMetadata(authorizationServer, fetchImpl));

  // RFC 7636 §4.1: 32 random octets make a 43-character verifier; §4.2: the challenge is BASE64URL(SHA256(verifier)).
  const codeVerifier = randomBytes(32).toString('base64url');
  // RFC 6749 §10.12: a value the browser's return must carry back, unguessable.
  const state = randomBytes(32).toString('base64url');
  // §5.1.1: an issuer with separate authorization servers is named in locations.
  const detail = {
    type: 'openid_credential',
    credential_configuration_id: configurationId,
    ...(metadata.authorization_servers ? { locations: [credentialIssuer] } : {}),
  };
  const url = new URL(endpoint);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    code_challenge: base64urlSha256(codeVerifier),
    code_challenge_method: 'S256',
    state,
    authorization_details: JSON.stringify([detail]),
  }))
    url.searchParams.set(name, value);
  return {
    authorizationUrl: url.href,
    state,
    codeVerifier,
    credentialIssuer,
    authorizationServer,
    clientId: options.clientId,
    redirectUri: options.redirectUri,
    configurationId,
  };
}

const sameSecret = (a: string, b: string) => timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/** A parameter of the authorization response: at most once (RFC 6749 §3.1), else undefined. */
function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw new Error(`the redirect carries ${name} more than once`);
  return values[0];
}

/**
 * The authorization response (RFC 6749 §4.1.2) as the browser brought it back: to the redirect URI, with this
 * request's state and the authorization server's iss; its code, or the server's refusal as an error.
 */
function authorizationCodeFrom(started: PendingAuthorization, redirectedTo: string): string {
  const text = redirectedTo.trim();
  if (text.length > MAX_REDIRECT_CHARS || !URL.canParse(text)) throw new Error('the redirected URL is not a URL');
  const url = new URL(text);
  const expected = new URL(started.redirectUri);
  const target = (u: URL) => `${u.protocol}//${u.host}${u.pathname}`;
  if (target(url) !== target(expected)) throw new Error("the redirected URL is not at this authorization's redirect_uri");
  const params = url.searchParams;
  // RFC 6749 §10.12: the state sent, unchanged, or the response belongs to another request (CSRF).
  const state = single(params, 'state');
  if (state === undefined || !sameSecret(state, started.state))
    throw new Error("the redirect's state is not this authorization's (started elsewhere, or forged): refused");
  // RFC 9207 §2.4: iss is the authorization server's issuer identifier, or the response is from another server (mix-up).
  // Our issuer always sends it (the contract), so a missing iss is refused too.
  const iss = single(params, 'iss');
  if (iss === undefined) throw new Error('the redirect carries no iss (RFC 9207): refused');
  if (iss !== started.authorizationServer) throw new Error("the redirect's iss is not the authorization server this wallet asked (mix-up): refused");
  // RFC 6749 §4.1.2.1: the server's refusal, said plainly.
  const error = single(params, 'error');
  if (error !== undefined) {
    const description = single(params, 'error_description');
    const printable = (s: string) => s.replace(/[^\x20-\x7E]/g, '?').slice(0, 200);
    throw new Error(`the authorization server refused: ${printable(error)}${description ? ` (${printable(description)})` : ''}`);
  }
  const code = single(params, 'code');
  if (code === undefined || code === '') throw new Error('the redirect carries neither code nor error');
  return code;
}

/** Checks the redirect, redeems the code with the verifier (§6.1, RFC 7636 §4.5) and receives the credentials. */
export async function finishAuthorization(options: FinishAuthorizationOptions): Promise<StoredCredential[]> {
  const fetchImpl = options.fetch ?? fetch;
  const batch = checkBatch(options.batch);
  const { started } = options;
  const code = authorizationCodeFrom(started, options.redirectedTo);
  const metadata = await fetchIssuerMetadata(started.credentialIssuer, fetchImpl);
  const configuration = checkConfiguration(metadata, started.configurationId);
  const as = await fetchAuthorizationServerMetadata(started.authorizationServer, fetchImpl);
  // RFC 6749 §4.1.3: the redirect_uri of the request; client_id, as a public client (§3.2.1); RFC 7636 §4.5 the verifier.
  const tokenForm = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: started.redirectUri,
    code_verifier: started.codeVerifier,
    client_id: started.clientId,
  });
  return redeemAndReceive({ fetch: fetchImpl, metadata, configuration, tokenEndpoint: as.token_endpoint, tokenForm, batch });
}
