/**
 * What both grants share once the wallet holds a grant to redeem (OpenID4VCI 1.0): the DPoP-bound token request
 * (§6, RFC 9449), a c_nonce (§7), one proof of possession per fresh holder key (Appendix F.1), the credential
 * request (§8) and its answer checked credential by credential (received-credential.ts). The pre-authorized code
 * (issuance.ts) and the authorization code (authorization.ts) differ only in the token request's form.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { credentialId, type StoredCredential } from './credential-store.js';
import { DpopSession } from './dpop.js';
import { expectObject, isObject, request, type Fetch } from './http-json.js';
import type { IssuerMetadata } from './issuer-metadata.js';
import { checkIssuedCredential } from './received-credential.js';
import { signedPayload } from './sd-jwt-paths.js';

/** A credential configuration this wallet can receive: its id and, when the metadata names one, its vct. */
export interface ChosenConfiguration {
  id: string;
  vct?: string;
}

export interface RedeemOptions {
  fetch: Fetch;
  metadata: IssuerMetadata;
  configuration: ChosenConfiguration;
  tokenEndpoint: string;
  /** The token request's form (§6.1): the grant and its parameters. */
  tokenForm: URLSearchParams;
  /** How many credentials to ask for; capped by the issuer's batch_size (§12.2). */
  batch: number;
}

interface HolderKey {
  privateKey: CryptoKey;
  publicJwk: JWK;
  thumbprint: string;
}

async function newHolderKey(): Promise<HolderKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const { kty, crv, x, y } = await exportJWK(publicKey);
  const publicJwk = { kty, crv, x, y } as JWK;
  return { privateKey, publicJwk, thumbprint: await calculateJwkThumbprint(publicJwk, 'sha256') };
}

/** §12.2: the configuration exists, is dc+sd-jwt, and takes jwt proofs signed with ES256 (what this wallet signs). */
export function checkConfiguration(metadata: IssuerMetadata, id: string): ChosenConfiguration {
  const configuration = metadata.credential_configurations_supported[id];
  if (!isObject(configuration)) throw new Error(`issuer metadata: no credential configuration ${id}`);
  if (configuration.format !== 'dc+sd-jwt') throw new Error(`issuer metadata: ${id} is ${String(configuration.format)}; this wallet receives dc+sd-jwt`);
  const jwt = configuration.proof_types_supported?.jwt;
  if (!jwt || !jwt.proof_signing_alg_values_supported?.includes('ES256')) throw new Error(`issuer metadata: ${id} takes no jwt proofs signed with ES256`);
  return { id, vct: typeof configuration.vct === 'string' ? configuration.vct : undefined };
}

export function checkBatch(batch: number | undefined): number {
  const n = batch ?? 1;
  if (!Number.isInteger(n) || n < 1) throw new Error('batch: a positive integer');
  return n;
}

/** Appendix F.1: typ openid4vci-proof+jwt, the holder key in jwk; aud the issuer, iat, the c_nonce. */
const proofJwt = (key: HolderKey, audience: string, nonce: string | undefined) =>
  new SignJWT({ aud: audience, iat: Math.floor(Date.now() / 1000), ...(nonce === undefined ? {} : { nonce }) })
    .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: key.publicJwk })
    .sign(key.privateKey);

/** Redeems the grant for a DPoP-bound access token, then asks for the credentials and checks what comes back. */
export async function redeemAndReceive(options: RedeemOptions): Promise<StoredCredential[]> {
  const { fetch: fetchImpl, metadata, configuration } = options;
  const dpop = await DpopSession.create();
  const tokenAnswer = await dpop.send(
    fetchImpl,
    'token endpoint',
    options.tokenEndpoint,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: options.tokenForm.toString() },
    'authorization',
  );
  const token = expectObject(tokenAnswer, 'token endpoint');
  if (typeof token.access_token !== 'string' || token.access_token === '') throw new Error('token endpoint: no access_token');
  // RFC 9449 §5: a DPoP-bound token says so (token_type is case-insensitive, RFC 6749 §5.1).
  if (typeof token.token_type !== 'string' || token.token_type.toLowerCase() !== 'dpop') throw new Error('token endpoint: the token is not DPoP-bound');
  const accessToken = token.access_token;
  const credentialIdentifier = identifierFrom(token.authorization_details, configuration.id);

  const keys = await Promise.all(Array.from({ length: Math.min(options.batch, metadata.batch_credential_issuance?.batch_size ?? 1) }, newHolderKey));
  const credentialRequest = async () => {
    const nonce = await cNonce(fetchImpl, metadata, dpop);
    const proofs = await Promise.all(keys.map((key) => proofJwt(key, metadata.credential_issuer, nonce)));
    // §8.2: credential_identifier when the token named them (authorization_details), else the configuration id.
    const body = {
      ...(credentialIdentifier ? { credential_identifier: credentialIdentifier } : { credential_configuration_id: configuration.id }),
      proofs: { jwt: proofs },
    };
    return dpop.send(
      fetchImpl,
      'credential endpoint',
      metadata.credential_endpoint,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      'resource',
      accessToken,
    );
  };
  let answer = await credentialRequest();
  // §8.3.1.2: invalid_nonce asks for proofs over a fresh c_nonce, once.
  if (answer.status === 400 && (answer.json as { error?: unknown } | null)?.error === 'invalid_nonce') answer = await credentialRequest();
  if (answer.status === 202) throw new Error('credential endpoint: deferred issuance is not supported by this wallet');
  const issued = expectObject(answer, 'credential endpoint').credentials;
  if (!Array.isArray(issued) || issued.length !== keys.length) throw new Error(`credential endpoint: expected ${keys.length} credentials`);

  const unused = new Map(keys.map((k) => [k.thumbprint, k]));
  const receivedAt = new Date().toISOString();
  const stored: StoredCredential[] = [];
  for (const entry of issued) {
    const credential = isObject(entry) ? entry.credential : undefined;
    if (typeof credential !== 'string') throw new Error('credential endpoint: an entry of credentials has no credential string');
    // Each credential is bound to one of the keys asked with, each key to one credential (§8.3, cnf.jwk).
    const cnf = signedPayload(credential).cnf as { jwk?: JWK } | undefined;
    const key = cnf?.jwk ? unused.get(await calculateJwkThumbprint(cnf.jwk, 'sha256')) : undefined;
    if (!key) throw new Error('credential endpoint: a credential is not bound to a key this wallet asked with, or two are bound to one');
    unused.delete(key.thumbprint);
    const checked = await checkIssuedCredential(credential, {
      holderPublicJwk: key.publicJwk,
      credentialIssuer: metadata.credential_issuer,
      vct: configuration.vct,
    });
    stored.push({
      id: credentialId(credential),
      format: 'dc+sd-jwt',
      vct: checked.vct,
      credential,
      holderPrivateJwk: await exportJWK(key.privateKey),
      issuer: metadata.credential_issuer,
      receivedAt,
      uses: 0,
    });
  }
  return stored;
}

/** §7: a fresh c_nonce from the Nonce Endpoint (POST, no body); none when the issuer has no such endpoint. */
async function cNonce(fetchImpl: Fetch, metadata: IssuerMetadata, dpop: DpopSession): Promise<string | undefined> {
  if (!metadata.nonce_endpoint) return undefined;
  const answer = await request(fetchImpl, 'nonce endpoint', metadata.nonce_endpoint, { method: 'POST' });
  dpop.keepNonce('resource', answer);
  const body = expectObject(answer, 'nonce endpoint');
  if (typeof body.c_nonce !== 'string' || body.c_nonce === '') throw new Error('nonce endpoint: no c_nonce');
  return body.c_nonce;
}

/** §6.2: the token's authorization_details of type openid_credential for this configuration name its identifiers. */
function identifierFrom(details: unknown, configurationId: string): string | undefined {
  if (!Array.isArray(details)) return undefined;
  const mine = details.find((d) => isObject(d) && d.type === 'openid_credential' && d.credential_configuration_id === configurationId) as
    Record<string, unknown> | undefined;
  const ids = mine?.credential_identifiers;
  return Array.isArray(ids) && typeof ids[0] === 'string' ? ids[0] : undefined;
}
