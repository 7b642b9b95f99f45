/**
 * DPoP as a client does it (RFC 9449), with jose: one ES256 key for the whole issuance (the access token is bound
 * to it), and a fresh proof JWT for every request (§4.2), with the access token's hash at the resource server (§7.1)
 * and the server's nonce once it has given one (§8 for the authorization server, §9 for the resource server).
 */
import { createHash, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { request, type Fetch, type HttpAnswer } from './http-json.js';

/** Nonces are per server (RFC 9449 §8, §9): the token endpoint's and the credential issuer's. */
export type DpopServer = 'authorization' | 'resource';

export class DpopSession {
  private readonly nonces = new Map<DpopServer, string>();

  private constructor(
    private readonly privateKey: CryptoKey,
    /** The public key every proof carries in its `jwk` header (§4.2). */
    readonly publicJwk: JWK,
  ) {}

  static async create(): Promise<DpopSession> {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const { kty, crv, x, y } = await exportJWK(publicKey);
    return new DpopSession(privateKey, { kty, crv, x, y });
  }

  /** §4.2: typ dpop+jwt, the public jwk; jti, htm, htu (no query, no fragment), iat; ath with a token (§4.2, §7.1); nonce once given. */
  async proof(method: string, url: string, server: DpopServer, accessToken?: string): Promise<string> {
    const target = new URL(url);
    const htu = `${target.origin}${target.pathname}`;
    const claims: Record<string, unknown> = { jti: randomUUID(), htm: method, htu, iat: Math.floor(Date.now() / 1000) };
    if (accessToken !== undefined) claims.ath = createHash('sha256').update(accessToken, 'ascii').digest('base64url');
    const nonce = this.nonces.get(server);
    if (nonce !== undefined) claims.nonce = nonce;
    return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: this.publicJwk }).sign(this.privateKey);
  }

  /**
   * Sends one request with a proof (and the DPoP access token, at the resource server). A server that demands a
   * nonce (§8: 400 use_dpop_nonce; §9: 401 with WWW-Authenticate error="use_dpop_nonce") gets the request once
   * more with a new proof carrying it; a nonce in any answer's DPoP-Nonce header is kept for the next proof (§8.2).
   */
  async send(
    fetchImpl: Fetch,
    what: string,
    url: string,
    init: RequestInit & { method: string },
    server: DpopServer,
    accessToken?: string,
  ): Promise<HttpAnswer> {
    const attempt = async () => {
      const headers: Record<string, string> = { ...(init.headers as Record<string, string>), dpop: await this.proof(init.method, url, server, accessToken) };
      if (accessToken !== undefined) headers.authorization = `DPoP ${accessToken}`;
      const answer = await request(fetchImpl, what, url, { ...init, headers });
      this.keepNonce(server, answer);
      return answer;
    };
    const first = await attempt();
    return this.demandsNonce(first) ? attempt() : first;
  }

  /** A DPoP-Nonce header from any answer of `server` (RFC 9449 §8.2, §9), the Nonce Endpoint's answer included. */
  keepNonce(server: DpopServer, answer: HttpAnswer): void {
    const nonce = answer.headers.get('dpop-nonce');
    // The nonce is an opaque NQCHAR string (§8.1); anything else is not taken into a proof.
    if (nonce !== null && /^[\x21\x23-\x5B\x5D-\x7E]{1,512}$/.test(nonce)) this.nonces.set(server, nonce);
  }

  private demandsNonce(answer: HttpAnswer): boolean {
    if (answer.headers.get('dpop-nonce') === null) return false;
    if (answer.status === 400) return (answer.json as { error?: unknown } | null)?.error === 'use_dpop_nonce';
    return answer.status === 401 && /error\s*=\s*"?use_dpop_nonce"?/.test(answer.headers.get('www-authenticate') ?? '');
  }
}
