import { extensionPoint } from '../../common/discovery/discovered.js';
import type { BrokeredIdentity } from './eid-provider.js';

/**
 * An offer to keep the identity just verified in the person's wallet: what the offer maker gives, and what the front
 * door keeps between the POST that made it and the GET that shows it (post/redirect/get).
 */
export interface ShownOffer {
  /** openid-credential-offer:// link: the same-device button, and the QR code's content. */
  link: string;
  txCode: string;
  revokeUrl: string;
  expiresAt: Date;
}

/** The offer as the broker page shows it: with the link as a QR code, drawn by the page's GET from our own link. */
export interface CredentialOfferView extends ShownOffer {
  /** SVG made by the QR encoder from our own link; no user input reaches it. */
  qrSvg: string;
}

/**
 * Opt-in: a front door that issues reusable credentials (OpenID4VCI) makes offers at the end of sign-ins whose
 * merchant asked for them. The broker core shows the offer between the scheme's identity and the hand-off back to the
 * merchant; it never learns how an offer is made, and without such a provider nothing changes.
 */
export interface CredentialOfferMaker {
  /** An offer for the evidence behind `identity` (a passed document verification), or undefined when none can be made. */
  offerAfterSignIn(identity: BrokeredIdentity, clientId: string): Promise<ShownOffer | undefined>;
}

/** Marks the provider that is the CredentialOfferMaker (at most one). */
export const CredentialOfferMakerProvider = extensionPoint();
