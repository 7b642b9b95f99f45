import * as oidc from 'openid-client';
import type { OutboundPolicy } from '../../common/outbound/outbound-fetch.js';
import type { UpstreamClientKeysService } from './keys/upstream-client-keys.service.js';
import { upstreamFetch } from './upstream-fetch.js';
import type { IdTokenEncryptionAlg, IdTokenEncryptionEnc } from './upstream-scheme-settings.js';

export interface UpstreamClientOptions {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
  tokenEndpointAuthSigningAlg?: 'RS256' | 'ES256';
  keys?: Pick<UpstreamClientKeysService, 'signingKey' | 'decryptionKey'>;
  idTokenEncryption?: { alg: IdTokenEncryptionAlg; enc: IdTokenEncryptionEnc };
  /** customer-test only: an upstream on plain http (a local test provider). */
  allowHttp: boolean;
  /** Which addresses every request to this upstream (discovery, JWKS, token, user-info) may reach. */
  policy: OutboundPolicy;
}

/** Discovery is kept this long; a failed login fetches it again (the upstream may have rotated keys). */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const TIMEOUT_SECONDS = 10;

/**
 * The relying-party side of one upstream, on openid-client: discovery (cached), the authorization URL,
 * and the code exchange with every ID token check: signature against the upstream's JWKS (openid-client
 * skips it for TLS-delivered tokens unless non-repudiation checks are on, and we want it always), issuer,
 * audience, nonce, expiry; PKCE and state.
 */
export class UpstreamOidcClient {
  private discovered?: { at: number; config: Promise<oidc.Configuration> };

  constructor(private readonly options: UpstreamClientOptions) {}

  async configuration(now = Date.now()): Promise<oidc.Configuration> {
    if (!this.discovered || now - this.discovered.at > DISCOVERY_TTL_MS) {
      const config = this.discover();
      this.discovered = { at: now, config };
      // A failed discovery is not cached: the next login tries again.
      config.catch(() => (this.discovered = undefined));
    }
    return this.discovered.config;
  }

  /** Drops the cached discovery (after a failure that a fresh JWKS or metadata might cure). */
  forget(): void {
    this.discovered = undefined;
  }

  private async discover(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret, allowHttp } = this.options;
    const url = new URL(issuer);
    if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) throw new Error(`upstream issuer must be https: ${issuer}`);
    const auth = await this.clientAuth();
    // Given to discovery, the fetch stays on the Configuration for every later request (JWKS, token, user-info).
    const config = await oidc.discovery(url, clientId, clientSecret ? { client_secret: clientSecret } : undefined, auth, {
      [oidc.customFetch]: upstreamFetch(this.options.policy),
      execute: allowHttp ? [oidc.allowInsecureRequests] : [],
      timeout: TIMEOUT_SECONDS,
    });
    oidc.enableNonRepudiationChecks(config);
    const { idTokenEncryption: encryption, keys } = this.options;
    if (encryption) {
      if (!keys) throw new Error('encrypted ID tokens need the broker keys');
      // Only the scheme's own enc and our key of its alg: a token under anything else does not decrypt.
      oidc.enableDecryptingResponses(config, [encryption.enc], await keys.decryptionKey(encryption.alg));
    }
    return config;
  }

  private async clientAuth(): Promise<oidc.ClientAuth> {
    const { clientSecret, tokenEndpointAuthMethod, tokenEndpointAuthSigningAlg, keys } = this.options;
    if (tokenEndpointAuthMethod === 'private_key_jwt') {
      if (!keys) throw new Error('private_key_jwt needs the broker keys');
      // The kid goes into the assertion header, so the upstream picks our key from /its/eid/jwks.
      return oidc.PrivateKeyJwt(await keys.signingKey(tokenEndpointAuthSigningAlg ?? 'RS256'));
    }
    if (!clientSecret) return oidc.None();
    return tokenEndpointAuthMethod === 'client_secret_post' ? oidc.ClientSecretPost(clientSecret) : oidc.ClientSecretBasic(clientSecret);
  }
}

export { oidc };
