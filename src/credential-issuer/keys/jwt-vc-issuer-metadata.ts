import { Inject, Injectable } from '@nestjs/common';
import { X509Certificate } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { issuerUrls } from '../credential-issuer-paths.js';
import { IssuerKeysService } from './issuer-keys.service.js';
import type { PublishedIssuerKey } from './issuer-signer.js';

/** A public signing key as a JWK (RFC 7517): the leaf certificate's key, with the chain the credentials carry in `x5c`. */
export interface PublishedJwk {
  kty: string;
  crv: string;
  x: string;
  y: string;
  kid: string;
  use: 'sig';
  alg: 'ES256';
  x5c: string[];
}

export interface JwtVcIssuerMetadataDocument {
  issuer: string;
  jwks: { keys: PublishedJwk[] };
}

/**
 * SD-JWT VC draft, "JWT VC Issuer Metadata": the issuer identifier exactly as the credentials' `iss`, and the keys
 * that verify them, by the `kid` of their header. Public parts only: the JWK is exported from the certificate, which
 * holds nothing else. `x5c` (RFC 7517 §4.7) is the chain the credentials' own header carries: leaf first, no root.
 */
export function jwtVcIssuerMetadata(issuer: string, keys: PublishedIssuerKey[]): JwtVcIssuerMetadataDocument {
  return {
    issuer,
    jwks: {
      keys: keys.map(({ kid, chain }) => {
        const { kty, crv, x, y } = new X509Certificate(chain[0]).publicKey.export({ format: 'jwk' });
        return { kty: kty!, crv: crv!, x: x!, y: y!, kid, use: 'sig', alg: 'ES256', x5c: chain.map((der) => Buffer.from(der).toString('base64')) };
      }),
    },
  };
}

/**
 * The document as served: rebuilt at most every VCI_ISSUER_KEY_RELOAD_SECONDS (an unauthenticated GET must not cost
 * a query each), and at once when this instance signs with a key the kept document does not list, so that no
 * credential this instance issued names a kid its metadata lacks.
 */
@Injectable()
export class JwtVcIssuerMetadataService {
  private readonly issuer: string;
  private kept?: { document: Promise<JwtVcIssuerMetadataDocument>; builtAt: number };

  constructor(
    private readonly keys: IssuerKeysService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.issuer = issuerUrls(config.baseUrl).issuer;
  }

  async document(): Promise<JwtVcIssuerMetadataDocument> {
    const signing = (await this.keys.current()).kid;
    const kept = this.kept;
    const fresh = kept && Date.now() - kept.builtAt < this.config.credentialIssuer.keyReloadSeconds * 1000;
    if (kept && fresh && (await kept.document).jwks.keys.some((k) => k.kid === signing)) return kept.document;
    const document = this.keys.published().then((keys) => jwtVcIssuerMetadata(this.issuer, keys));
    this.kept = { document, builtAt: Date.now() };
    // A failed build is not kept: the next request tries again (and its error reaches the renderer).
    document.catch(() => {
      if (this.kept?.document === document) this.kept = undefined;
    });
    return document;
  }
}
