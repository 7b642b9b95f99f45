import type { DiscoveryService } from '@nestjs/core';
import { discovered, extensionPoint } from '../../common/discovery/discovered.js';

/**
 * The service's own reusable identity credential (an SD-JWT VC it issues after a passed document verification), as
 * schemes that accept it need to know it: its type, who issues it and whom to trust for its signatures. The credential
 * issuer (a front door, above the broker and the schemes) provides it; schemes only ever see this interface, so they
 * never import the issuer (docs/architecture.md#rules).
 */
export interface ReusableCredentialProvider {
  /** The credential's `vct` (SD-JWT VC draft, "vct"), e.g. `${BASE_URL}/vct/verified-document-identity`. */
  readonly vct: string;
  /** The credential issuer identifier, equal to the `iss` of every credential it issues (OpenID4VCI 1.0 §12.2.1). */
  readonly issuer: string;
  /** DER root certificates a verifier trusts for the issuer's `x5c` chains (and its status lists). */
  anchors(): Promise<Uint8Array[]>;
  /**
   * The status value (Token Status List draft, "Status Types": 0 VALID, 1 INVALID, 2 SUSPENDED) of the entry a
   * credential's `status.status_list` names, read in process from the issuer's own current state, when `uri` is one
   * of this issuer's status lists; undefined for any other uri, which the scheme then fetches over HTTP. Optional: a
   * provider without it leaves every status to HTTP. A uri of this issuer naming no list or index of its own answers
   * INVALID (an HTTP fetch of it would fail as well).
   */
  statusOf?(reference: { uri: string; idx: number }): Promise<number | undefined>;
}

/** Marks the provider of ReusableCredentialProvider; there is at most one. */
export const ReusableCredentials = extensionPoint();

/** The one provider marked ReusableCredentials, or undefined when the service issues no reusable credential. */
export function findReusableCredentialProvider(discovery: DiscoveryService): ReusableCredentialProvider | undefined {
  const found = discovered<ReusableCredentialProvider>(discovery, ReusableCredentials);
  if (found.length > 1) throw new Error(`${found.length} providers are marked ReusableCredentials; there can be one`);
  return found[0];
}
