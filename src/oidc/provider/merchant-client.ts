import type { Adapter, AdapterPayload, ClientMetadata } from 'oidc-provider';
import type { MerchantEntity } from '../../merchants/merchant.entity.js';
import type { MerchantsService } from '../../merchants/merchants.service.js';

type Jwk = Record<string, unknown>;

/**
 * Spec 4.2.3 / 5.5: the merchant names a key of its set by kid, or else the first key is used. With an
 * inline set we hand oidc-provider only the chosen keys, marked for their use, so the engine cannot
 * pick another one. A JWKS URL is fetched by the engine, which selects by kid/use/alg.
 */
export function selectMerchantKeys(m: Pick<MerchantEntity, 'jwks' | 'encryptionKeyId' | 'requestObjectKeyId'>): { keys: Jwk[] } | undefined {
  const keys = (m.jwks?.keys ?? []) as Jwk[];
  if (!keys.length) return undefined;
  const pick = (kid: string | null) => (kid ? keys.find((k) => k.kid === kid) : keys[0]);
  const enc = pick(m.encryptionKeyId);
  const sig = pick(m.requestObjectKeyId);
  const chosen: Jwk[] = [];
  if (enc) chosen.push(enc === sig ? withoutUse(enc) : { ...enc, use: 'enc' });
  if (sig && sig !== enc) chosen.push({ ...sig, use: 'sig' });
  // Keys for private_key_jwt: every signing-capable key of the set stays usable.
  for (const k of keys) if (!chosen.includes(k) && k !== enc && k !== sig && k.use !== 'enc') chosen.push(k);
  return { keys: chosen };
}

function withoutUse(k: Jwk): Jwk {
  const { use: _use, ...rest } = k;
  return rest;
}

/** A merchant as oidc-provider client metadata (RFC 7591 names, as stored). */
export function toClientMetadata(m: MerchantEntity & { clientSecret: string }): ClientMetadata {
  const metadata: ClientMetadata = {
    client_id: m.clientId,
    client_secret: m.clientSecret,
    client_name: m.name,
    redirect_uris: m.redirectUris,
    response_types: ['code'],
    grant_types: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_method: m.tokenEndpointAuthMethod,
    id_token_signed_response_alg: m.idTokenSignedResponseAlg,
    // User-info is always a signed JWT (spec 4.6), with the merchant's ID token algorithm.
    userinfo_signed_response_alg: m.idTokenSignedResponseAlg,
    // auth_time in every ID token (spec 2.4 lists it; merchants use it for max_age decisions).
    require_auth_time: true,
    psd2: m.psd2,
    eid_schemes: m.eidSchemes ?? undefined,
  };
  if (m.scope) metadata.scope = m.scope;
  if (m.idTokenEncryptedResponseAlg) {
    metadata.id_token_encrypted_response_alg = m.idTokenEncryptedResponseAlg as ClientMetadata["id_token_encrypted_response_alg"];
    metadata.id_token_encrypted_response_enc = (m.idTokenEncryptedResponseEnc ?? "A256GCM") as ClientMetadata["id_token_encrypted_response_enc"];
  }
  if (m.userinfoEncryptedResponseAlg) {
    metadata.userinfo_encrypted_response_alg = m.userinfoEncryptedResponseAlg as ClientMetadata["userinfo_encrypted_response_alg"];
    metadata.userinfo_encrypted_response_enc = (m.userinfoEncryptedResponseEnc ?? "A256GCM") as ClientMetadata["userinfo_encrypted_response_enc"];
  }
  if (m.requestObjectSigningAlg) metadata.request_object_signing_alg = m.requestObjectSigningAlg as ClientMetadata["request_object_signing_alg"];
  if (m.jwksUri) metadata.jwks_uri = m.jwksUri;
  const jwks = selectMerchantKeys(m);
  if (jwks) metadata.jwks = jwks as ClientMetadata['jwks'];
  return metadata;
}

/**
 * The engine's `Client` model read straight from the merchants service: a change made through the
 * admin API is seen on the next request, and a disabled merchant is unknown to the protocol.
 */
export class MerchantClientAdapter implements Adapter {
  constructor(private readonly merchants: MerchantsService) {}

  async find(id: string): Promise<AdapterPayload | undefined> {
    const merchant = await this.merchants.findEnabled(id);
    return merchant ? (toClientMetadata(merchant) as AdapterPayload) : undefined;
  }

  async upsert(): Promise<void> {
    throw new Error('merchants are managed through the admin API');
  }
  async findByUid(): Promise<undefined> {
    return undefined;
  }
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }
  async destroy(): Promise<void> {
    throw new Error('merchants are managed through the admin API');
  }
  async revokeByGrantId(): Promise<void> {}
  async consume(): Promise<void> {}
}
