import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createOpenid4vpAuthorizationRequest, type Openid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import { setGlobalConfig } from '@openid4vc/utils';
import { isAllowedLoopbackHttp } from '../loopback-http.js';
import { CompactSign, exportJWK, type JWK } from 'jose';
import { x509HashClientId } from './client-identifier.js';
import { validateDcqlQuery, type DcqlQuery } from './dcql.js';
import { leafHasDnsName, requestSignerX5c, type RequestSigner } from './request-signer.js';

/**
 * The service's signed Authorization Request (JAR, RFC 9101) for OpenID4VP 1.0 with HAIP 1.0. Composed and checked
 * by @openid4vc/openid4vp (its zod schema and 1.0 request rules), signed here with jose over the leaf key.
 */
export interface CreateRequestObjectOptions {
  signer: RequestSigner;
  /** `x509_hash:…` (HAIP 1.0 §5) or `x509_san_dns:…`; checked against the leaf certificate. */
  clientId: string;
  /** Where the wallet POSTs the response (direct_post.jwt, 1.0 §8.3.1); https. */
  responseUri: string;
  /** Fresh per request, binds the presentations (KB-JWT nonce, mdoc SessionTranscript). */
  nonce: string;
  /** Fresh per request; the response carries it back (1.0 §5.2, §14.3). */
  state: string;
  dcqlQuery: DcqlQuery;
  /** Public P-256 JWK with kid, use "enc", alg "ECDH-ES": ephemeral, one per request (HAIP 1.0 §5). */
  responseEncryptionKey: JWK;
  /** encrypted_response_enc_values_supported; HAIP 1.0 §5: Verifiers list both A128GCM and A256GCM. */
  encValues?: string[];
  /** The wallet's wallet_nonce from its POST to request_uri (1.0 §5.10), echoed in the request object. */
  walletNonce?: string;
  now?: Date;
  /** Lifetime of the request object (exp − iat), default 300 s. */
  lifetimeSeconds?: number;
  /** Test environments on this machine only: a response_uri on http://127.0.0.1 / localhost / [::1] passes. */
  allowHttpLoopback?: boolean;
}

/** `aud` of a request object under static discovery (1.0 §5.8). */
export const SELF_ISSUED_AUDIENCE = 'https://self-issued.me/v2';
const HAIP_ENC = ['A128GCM', 'A256GCM'];
/** URL-safe ASCII (1.0 §5.2 for state), and at least 128 bits when base64url (the service makes both values). */
const FRESH_VALUE = /^[A-Za-z0-9._~-]{22,256}$/;

/** vp_formats_supported (1.0 §11.1, Appendix B.2.2 and B.3.4): ES256 (HAIP 1.0 §7), COSE −7 and −9 (ES256, P-256). */
const VP_FORMATS = {
  'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
  mso_mdoc: { issuerauth_alg_values: [-7, -9], deviceauth_alg_values: [-7, -9] },
} as const;

/** Returns the compact JWS of the request object. Throws TypeError on the caller's misuse (never on wallet input). */
export async function createRequestObject(options: CreateRequestObjectOptions): Promise<string> {
  const now = options.now ?? new Date();
  const lifetime = options.lifetimeSeconds ?? 300;
  if (!Number.isInteger(lifetime) || lifetime < 1 || lifetime > 3600) throw new TypeError('lifetimeSeconds must be 1..3600');
  const x5c = requestSignerX5c(options.signer, now);
  checkClientId(options.clientId, options.signer.chain[0]);
  if (!FRESH_VALUE.test(options.nonce)) throw new TypeError('nonce must be 22-256 URL-safe characters');
  if (!FRESH_VALUE.test(options.state)) throw new TypeError('state must be 22-256 URL-safe characters');
  const responseUrl = URL.canParse(options.responseUri) ? new URL(options.responseUri) : undefined;
  const loopbackHttp = isAllowedLoopbackHttp(responseUrl, options.allowHttpLoopback);
  if (!responseUrl || (responseUrl.protocol !== 'https:' && !loopbackHttp)) throw new TypeError('responseUri must be https');
  const encKey = checkEncryptionKey(options.responseEncryptionKey);
  const encValues = options.encValues ?? HAIP_ENC;
  if (!HAIP_ENC.every((enc) => encValues.includes(enc)) || !encValues.every((enc) => HAIP_ENC.includes(enc))) {
    throw new TypeError('encValues must list A128GCM and A256GCM (HAIP 1.0 §5), and only those');
  }
  if (options.walletNonce !== undefined && !/^[\x21-\x7e]{1,256}$/.test(options.walletNonce))
    throw new TypeError('walletNonce is not printable ASCII of 1-256');
  validateDcqlQuery(options.dcqlQuery);
  const formats = new Set(options.dcqlQuery.credentials.map((credential) => credential.format));

  // 1.0 §5.1 and §5.2 parameters; no presentation_definition or scope (DCQL only, HAIP 1.0 §5).
  const payload: Openid4vpAuthorizationRequest = {
    response_type: 'vp_token',
    response_mode: 'direct_post.jwt',
    client_id: options.clientId,
    response_uri: options.responseUri,
    nonce: options.nonce,
    state: options.state,
    dcql_query: options.dcqlQuery as unknown as Record<string, unknown>,
    client_metadata: {
      jwks: { keys: [encKey] as never },
      encrypted_response_enc_values_supported: [...encValues],
      vp_formats_supported: Object.fromEntries(Object.entries(VP_FORMATS).filter(([format]) => formats.has(format as never))) as never,
    },
    ...(options.walletNonce !== undefined ? { wallet_nonce: options.walletNonce } : {}),
  };
  const iat = Math.floor(now.getTime() / 1000);
  // The library refuses any http URL unless told otherwise, process-wide; our own check above already allowed only a
  // loopback response_uri, and only for the caller that asked (a test environment on this machine).
  setGlobalConfig({ allowInsecureUrls: loopbackHttp });
  const result = await createOpenid4vpAuthorizationRequest({
    authorizationRequestPayload: payload,
    // 0.4.6 does not hand `now` on to the JAR it signs (it uses the clock), so iat and exp are set here, where they
    // override the library's. aud: 1.0 §5.8 (the library's default would be the request_uri).
    jar: {
      jwtSigner: { method: 'x5c', alg: 'ES256', x5c },
      expiresInSeconds: lifetime,
      additionalJwtPayload: { aud: SELF_ISSUED_AUDIENCE, iat, exp: iat + lifetime },
    },
    wallet: options.walletNonce !== undefined ? { expectedNonce: options.walletNonce } : undefined,
    callbacks: {
      signJwt: async (_signer, { header, payload: claims }) => {
        const jwt = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
          .setProtectedHeader({ ...header, alg: 'ES256', typ: 'oauth-authz-req+jwt', x5c })
          .sign(options.signer.privateKey);
        return { jwt, signerJwk: (await exportJWK(options.signer.privateKey)) as never };
      },
      encryptJwe: () => {
        throw new Error('request objects are signed, not encrypted');
      },
    },
  });
  if (!result.jar) throw new Error('@openid4vc/openid4vp returned no request object');
  return result.jar.authorizationRequestJwt;
}

function checkClientId(clientId: string, leafDer: Uint8Array): void {
  if (clientId.startsWith('x509_hash:')) {
    if (clientId !== x509HashClientId(leafDer)) throw new TypeError('clientId is not the x509_hash of the leaf certificate');
  } else if (clientId.startsWith('x509_san_dns:')) {
    if (!leafHasDnsName(leafDer, clientId.slice('x509_san_dns:'.length))) throw new TypeError('clientId names a DNS name the leaf certificate does not');
  } else throw new TypeError('clientId must use the x509_hash or x509_san_dns prefix');
}

/** 1.0 §8.3: the JWK carries `alg` (the JWE alg the wallet must use) and a `kid` (the JWE echoes it); public only. */
function checkEncryptionKey(jwk: JWK): JWK {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.x || !jwk.y) throw new TypeError('responseEncryptionKey must be a P-256 EC JWK');
  if ('d' in jwk) throw new TypeError('responseEncryptionKey must be the public key');
  if (!jwk.kid || jwk.use !== 'enc' || jwk.alg !== 'ECDH-ES') throw new TypeError('responseEncryptionKey needs kid, use "enc" and alg "ECDH-ES"');
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, kid: jwk.kid, use: 'enc', alg: 'ECDH-ES' };
}

/**
 * A fresh response encryption key for one request (HAIP 1.0 §5: ephemeral, per Authorization Request): the public
 * JWK for client_metadata, the private key to open the response with (keep it with the request's state).
 */
export function createResponseEncryptionKey(): { publicJwk: JWK; privateKey: KeyObject; keyId: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const keyId = randomBytes(12).toString('base64url');
  const { x, y } = publicKey.export({ format: 'jwk' });
  return { publicJwk: { kty: 'EC', crv: 'P-256', x, y, kid: keyId, use: 'enc', alg: 'ECDH-ES' }, privateKey, keyId };
}
