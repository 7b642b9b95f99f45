import type { KeyObject } from 'node:crypto';

/** The key that signs credentials and status lists now, and the chain their `x5c` carries. */
export interface IssuerSigner {
  privateKey: KeyObject;
  /** DER certificates, the signer's first, then intermediates; never the root (SD-JWT VC: the anchor is not sent). */
  chain: Uint8Array[];
  /** The signer certificate's SHA-256 thumbprint (base64url): changes with every rotation. */
  kid: string;
  /** The signer certificate's end: a credential should not outlive the certificate that signed it. */
  notAfter: Date;
}

/** A key a verifier may need to check our credentials: its kid (the credentials' header `kid`) and certificate chain (DER, leaf first). */
export interface PublishedIssuerKey {
  kid: string;
  chain: Uint8Array[];
}
