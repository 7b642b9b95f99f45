import type { Adapter, AdapterPayload, ClientMetadata } from 'oidc-provider';
import type { MerchantEntity } from '../../merchants/merchant.entity.js';
import { pageLogoOf } from '../../merchants/logos/page-logo.js';
import type { PageLogo } from '../../common/pages/page-logo.js';
import type { MerchantsService } from '../../merchants/merchants.service.js';
import type { Jwk, MerchantJwksSource } from '../../merchants/merchant-jwks.js';
import { fapi2ClientMetadata } from './fapi-profile.js';

type KeySelection = Pick<MerchantEntity, 'encryptionKeyId' | 'requestObjectKeyId' | 'idTokenEncryptedResponseAlg' | 'userinfoEncryptedResponseAlg'>;

/**
 * Spec 4.2.3 / 5.5: the merchant names a key of its set by kid, or else the first key (the first one not
 * marked for the other use) is used; the same for an inline set and a fetched jwks_uri set. The engine is
 * handed only the chosen keys, marked for their use: it would otherwise verify a request object with any
 * key of the set, and choose an encryption key by its own scoring. The signing key also verifies
 * private_key_jwt assertions (one signing key per merchant). A named kid that is not in the set (a
 * jwks_uri set that changed) leaves that use without a key: it fails closed, never falls back.
 */
export function selectMerchantKeys(keys: Jwk[] | undefined, m: KeySelection): { keys: Jwk[] } | undefined {
  if (!keys?.length) return undefined;
  const pick = (kid: string | null, use: 'sig' | 'enc') => (kid ? keys.find((k) => k.kid === kid) : keys.find((k) => k.use === undefined || k.use === use));
  const enc = pick(m.encryptionKeyId, 'enc');
  const sig = pick(m.requestObjectKeyId, 'sig');
  // Encryption is registered but its key cannot be found: no keys at all, so the engine refuses the
  // client instead of failing half-way through a login (tokens are never sent unencrypted).
  if ((m.idTokenEncryptedResponseAlg || m.userinfoEncryptedResponseAlg) && !enc) return undefined;
  const chosen: Jwk[] = [];
  if (enc && enc === sig) chosen.push(withoutUse(enc));
  else {
    if (enc) chosen.push({ ...enc, use: 'enc' });
    if (sig) chosen.push({ ...sig, use: 'sig' });
  }
  return chosen.length ? { keys: chosen } : undefined;
}

function withoutUse(k: Jwk): Jwk {
  const { use: _use, ...rest } = k;
  return rest;
}

/** A merchant as oidc-provider client metadata (RFC 7591 names, as stored). */
export function toClientMetadata(m: MerchantEntity & { clientSecret: string }, merchantKeys?: Jwk[]): ClientMetadata {
  const metadata: ClientMetadata = {
    client_id: m.clientId,
    client_secret: m.clientSecret,
    client_name: m.name,
    redirect_uris: m.redirectUris,
    post_logout_redirect_uris: m.postLogoutRedirectUris ?? [],
    response_types: ['code'],
    grant_types: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_method: m.tokenEndpointAuthMethod,
    id_token_signed_response_alg: m.idTokenSignedResponseAlg,
    // User-info is always a signed JWT (spec 4.6), with the merchant's ID token algorithm.
    userinfo_signed_response_alg: m.idTokenSignedResponseAlg,
    // auth_time in every ID token (spec 2.4 lists it; merchants use it for max_age decisions).
    require_auth_time: true,
    psd2: m.psd2,
    // RFC 9449 §5.2: the engine refuses this merchant's token requests without a DPoP proof (dpop.ts answers it as invalid_dpop_proof).
    dpop_bound_access_tokens: m.dpopBoundAccessTokens ?? false,
    // RFC 9101 §10.5: without a signed request object the engine refuses the request (invalid_request). For a fapi2
    // merchant this is FAPI 2.0 Message Signing §5.3.1: the engine also demands aud, nbf and exp at most 60 min apart.
    require_signed_request_object: m.requireSignedRequestObject ?? false,
    // Both types are in the discovery document (spec 2.8/2.9); pairwise subs come from pairwiseIdentifier.
    subject_type: m.subjectType ?? 'public',
    eid_schemes: m.eidSchemes ?? undefined,
    // For the engine's own pages (error, logout), which know the client and not the merchant row.
    logo_sha256: m.logoSha256 ?? undefined,
  };
  Object.assign(metadata, cibaMetadata(m));
  if (m.scope) metadata.scope = m.scope;
  // Message Signing §5.3.3/§5.4.1: limited to ["jwt"], a merchant's every authorization response is signed (JARM).
  if (m.responseModes?.length) metadata.response_modes = m.responseModes;
  if (m.idTokenEncryptedResponseAlg) {
    metadata.id_token_encrypted_response_alg = m.idTokenEncryptedResponseAlg as ClientMetadata['id_token_encrypted_response_alg'];
    metadata.id_token_encrypted_response_enc = (m.idTokenEncryptedResponseEnc ?? 'A256GCM') as ClientMetadata['id_token_encrypted_response_enc'];
  }
  if (m.userinfoEncryptedResponseAlg) {
    metadata.userinfo_encrypted_response_alg = m.userinfoEncryptedResponseAlg as ClientMetadata['userinfo_encrypted_response_alg'];
    metadata.userinfo_encrypted_response_enc = (m.userinfoEncryptedResponseEnc ?? 'A256GCM') as ClientMetadata['userinfo_encrypted_response_enc'];
  }
  if (m.requestObjectSigningAlg) metadata.request_object_signing_alg = m.requestObjectSigningAlg as ClientMetadata['request_object_signing_alg'];
  // A jwks_uri set is fetched by MerchantJwksSource and handed over as chosen keys, like an inline set.
  const jwks = withCertificateKeys(selectMerchantKeys(merchantKeys, m), merchantKeys, m);
  if (jwks) metadata.jwks = jwks as ClientMetadata['jwks'];
  Object.assign(metadata, mutualTlsMetadata(m));
  // Last: the FAPI 2.0 profile overrides what a merchant registered where the profile leaves no choice.
  Object.assign(
    metadata,
    fapi2ClientMetadata(
      m,
      jwks?.keys.find((k) => k.use !== 'enc'),
    ),
  );
  return metadata;
}

/** RFC 8705 §2.1.2 and §3 as registered (only the subject member that is set). */
function mutualTlsMetadata(m: MerchantEntity): Partial<ClientMetadata> {
  const subject = {
    tls_client_auth_subject_dn: m.tlsClientAuthSubjectDn,
    tls_client_auth_san_dns: m.tlsClientAuthSanDns,
    tls_client_auth_san_uri: m.tlsClientAuthSanUri,
    tls_client_auth_san_ip: m.tlsClientAuthSanIp,
    tls_client_auth_san_email: m.tlsClientAuthSanEmail,
  };
  const named = m.tokenEndpointAuthMethod === 'tls_client_auth' ? Object.entries(subject).filter(([, value]) => value) : [];
  return { ...Object.fromEntries(named), tls_client_certificate_bound_access_tokens: m.tlsClientCertificateBoundAccessTokens ?? false };
}

/**
 * RFC 8705 §2.2: a self_signed_tls_client_auth merchant is known by every certificate (x5c) of its set, so that it
 * can roll its certificate; the engine matches the presented one by its SHA-256 thumbprint among the keys it is given.
 */
function withCertificateKeys(chosen: { keys: Jwk[] } | undefined, keys: Jwk[] | undefined, m: MerchantEntity): { keys: Jwk[] } | undefined {
  if (m.tokenEndpointAuthMethod !== 'self_signed_tls_client_auth') return chosen;
  const certified = (keys ?? [])
    .filter((k) => Array.isArray(k.x5c) && k.x5c.length > 0 && !chosen?.keys.some((c) => c.kid === k.kid && c.n === k.n && c.x === k.x))
    // Marked for signing: the engine must never choose one of them as the encryption key by its own scoring.
    .map((k) => ({ ...k, use: 'sig' }));
  const all = [...(chosen?.keys ?? []), ...certified];
  return all.length ? { keys: all } : undefined;
}

/** The merchant's logo for a page the engine renders (its client carries the logo's hash, see toClientMetadata). */
export function clientLogo(client: { clientName?: string; clientId: string; metadata(): Record<string, unknown> } | undefined): PageLogo | undefined {
  const sha = client?.metadata().logo_sha256;
  return client && typeof sha === 'string' ? pageLogoOf({ name: client.clientName ?? client.clientId, logoSha256: sha }) : undefined;
}

const CIBA_GRANT = 'urn:openid:params:grant-type:ciba';

/**
 * CIBA registration (CIBA Core 4) as the engine needs it. The engine wants a jwks_uri, a sector_identifier_uri
 * and private_key_jwt of pairwise CIBA clients (PAIRWISE_CIBA_REASON): such merchants get no CIBA grant, so their
 * backchannel requests answer unauthorized_client (with that reason) and their code flow is untouched. The engine only checks the notification endpoint's shape (https); it never calls it (the
 * CIBA module's outbox delivers), so a customer-test http://localhost endpoint is shown to it as https. Push
 * (which the engine refuses to configure) is shown to it as ping: the request side is the same (a
 * client_notification_token is required); the CIBA module delivers the tokens itself.
 */
function cibaMetadata(m: MerchantEntity): Partial<ClientMetadata> {
  const mode = m.backchannelTokenDeliveryMode ?? 'poll';
  if ((m.subjectType ?? 'public') !== 'public') return {};
  const endpoint = m.backchannelClientNotificationEndpoint?.replace(/^http:/, 'https:');
  return {
    grant_types: ['authorization_code', 'refresh_token', CIBA_GRANT],
    backchannel_token_delivery_mode: mode === 'push' ? 'ping' : mode,
    ...(mode !== 'poll' && endpoint ? { backchannel_client_notification_endpoint: endpoint } : {}),
    backchannel_user_code_parameter: m.backchannelUserCodeParameter ?? false,
    // CIBA Core 7.1.1: the engine then refuses unsigned requests and other algorithms.
    ...(m.backchannelAuthenticationRequestSigningAlg ? { backchannel_authentication_request_signing_alg: m.backchannelAuthenticationRequestSigningAlg } : {}),
  };
}

/**
 * The engine's `Client` model read straight from the merchants service: a change made through the
 * admin API is seen on the next request, and a disabled merchant is unknown to the protocol.
 */
export class MerchantClientAdapter implements Adapter {
  /**
   * One metadata object per merchant row and key set: findEnabled hands out the same frozen row until the merchant
   * changes, and keysOf the same array until the set changes, so the engine's client lookup can key on the object
   * (client-lookup.ts). Kept weakly: a replaced row takes its metadata with it.
   */
  private readonly metadataOf = new WeakMap<object, { keys: Jwk[] | undefined; metadata: AdapterPayload }>();

  constructor(
    private readonly merchants: MerchantsService,
    private readonly merchantKeys: MerchantJwksSource,
  ) {}

  async find(id: string): Promise<AdapterPayload | undefined> {
    const merchant = await this.merchants.findEnabled(id);
    if (!merchant) return undefined;
    const keys = await this.merchantKeys.keysOf(merchant);
    const kept = this.metadataOf.get(merchant);
    if (kept && kept.keys === keys) return kept.metadata;
    const metadata = toClientMetadata(merchant, keys) as AdapterPayload;
    this.metadataOf.set(merchant, { keys, metadata });
    return metadata;
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
