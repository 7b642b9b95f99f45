import * as oidc from 'openid-client';

export interface UpstreamClientOptions {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post';
  /** customer-test only: an upstream on plain http (a local test provider). */
  allowHttp: boolean;
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
    const { issuer, clientId, clientSecret, tokenEndpointAuthMethod, allowHttp } = this.options;
    const url = new URL(issuer);
    if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) throw new Error(`upstream issuer must be https: ${issuer}`);
    const auth = !clientSecret ? oidc.None() : tokenEndpointAuthMethod === 'client_secret_post' ? oidc.ClientSecretPost(clientSecret) : oidc.ClientSecretBasic(clientSecret);
    const config = await oidc.discovery(url, clientId, clientSecret ? { client_secret: clientSecret } : undefined, auth, {
      execute: allowHttp ? [oidc.allowInsecureRequests] : [],
      timeout: TIMEOUT_SECONDS,
    });
    oidc.enableNonRepudiationChecks(config);
    return config;
  }
}

export { oidc };
