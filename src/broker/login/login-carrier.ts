import { extensionPoint } from '../../common/discovery/discovered.js';

/** What a brokered login asks of its carrier: the merchant, what it may release, the page language, its owner. */
export interface CarriedLogin {
  clientId: string;
  scopes: string[];
  /** ui_locales as the front door got them (BCP 47 or the spec's `nb_NO`), at most 200 characters. */
  uiLocales?: string;
  /** Always `login`: a front door's login never reuses an earlier sign-in. */
  prompt: 'login';
  /** The sealed owner (LoginOwnerSeal): which front door answers the end, and its reference. */
  owner: string;
}

/**
 * What carries a login across the broker pages: the OIDC engine's interaction. The carrier makes the request that
 * opens one, server-side (the engine's pushed authorization request), and answers the address to send the browser to;
 * the core asks it through this point because the engine lives in a front door above the core.
 */
export interface LoginCarrier {
  carry(login: CarriedLogin): Promise<string>;
}

/** Marks the provider that is the LoginCarrier (exactly one: the OIDC front door's). */
export const LoginCarrierProvider = extensionPoint();
