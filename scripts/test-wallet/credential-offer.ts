/**
 * A Credential Offer as a wallet receives it (OpenID4VCI 1.0 §4.1): from the link a QR code or an "open wallet"
 * button carries, by value (`credential_offer`) or by reference (`credential_offer_uri`, fetched with GET, §4.1.3),
 * checked for the 1.0 shape this wallet can use: the Pre-Authorized Code grant (§4.1.1), with an optional tx_code.
 */
import { expectObject, isObject, request, type Fetch } from './http-json.js';

export const PRE_AUTHORIZED_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

/** §4.1.1: how the wallet shows the transaction code prompt. */
export interface TxCodeDescription {
  input_mode?: 'numeric' | 'text';
  length?: number;
  description?: string;
}

export interface PreAuthorizedCodeGrant {
  'pre-authorized_code': string;
  tx_code?: TxCodeDescription;
  authorization_server?: string;
}

export interface CredentialOffer {
  credential_issuer: string;
  credential_configuration_ids: string[];
  grants: { [PRE_AUTHORIZED_GRANT]: PreAuthorizedCodeGrant } & Record<string, unknown>;
}

/** What a link carries: the offer itself, or where to fetch it. */
export type OfferReference = { offer: CredentialOffer } | { offerUri: string };

/** A link longer than this is not an offer link (a QR code holds at most ~4 KB; an offer by value stays small). */
const MAX_LINK_CHARS = 16 * 1024;
const LINK_SCHEMES = ['openid-credential-offer:', 'haip-vci:', 'https:', 'http:'];

/** http is accepted only on this machine (tests); anywhere else the issuer's URLs are https (1.0 §12.2.1). */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname));
}

export function checkIssuerUrl(value: unknown, what: string): string {
  if (typeof value !== 'string' || !URL.canParse(value)) throw new Error(`${what} is not a URL`);
  const url = new URL(value);
  if (url.protocol !== 'https:' && !isLoopbackHttp(url)) throw new Error(`${what} is not an https URL`);
  // §12.2.1: the Credential Issuer Identifier has no query or fragment.
  if (url.search || url.hash) throw new Error(`${what} has a query or fragment`);
  return value;
}

/** Reads the link (or the QR code's text, or the offer's JSON itself): the offer by value, or its URI. */
export function parseOfferLink(text: string): OfferReference {
  const link = text.trim();
  if (link.length === 0) throw new Error('the credential offer link is empty');
  if (link.length > MAX_LINK_CHARS) throw new Error(`the credential offer link is longer than ${MAX_LINK_CHARS} characters`);
  if (link.startsWith('{')) return { offer: validateCredentialOffer(parseJson(link, 'the credential offer')) };
  if (!URL.canParse(link)) throw new Error('this is not a credential offer link (expected openid-credential-offer://?credential_offer_uri=…)');
  const url = new URL(link);
  if (!LINK_SCHEMES.includes(url.protocol)) throw new Error(`this is not a credential offer link (scheme ${url.protocol.slice(0, 40)})`);
  const byValue = url.searchParams.getAll('credential_offer');
  const byReference = url.searchParams.getAll('credential_offer_uri');
  // §4.1: one of the two parameters, never both.
  if (byValue.length + byReference.length !== 1) {
    throw new Error(
      byValue.length + byReference.length === 0
        ? 'the link carries neither credential_offer nor credential_offer_uri'
        : 'the link carries more than one credential offer parameter',
    );
  }
  if (byValue.length === 1) return { offer: validateCredentialOffer(parseJson(byValue[0], 'credential_offer')) };
  const uri = byReference[0];
  if (!URL.canParse(uri)) throw new Error('credential_offer_uri is not a URL');
  const target = new URL(uri);
  if (target.protocol !== 'https:' && !isLoopbackHttp(target)) throw new Error('credential_offer_uri is not an https URL');
  return { offerUri: uri };
}

/** The offer a link stands for: parsed, and fetched when it is by reference (§4.1.3: GET, application/json). */
export async function resolveCredentialOffer(text: string, fetchImpl: Fetch = fetch): Promise<CredentialOffer> {
  const reference = parseOfferLink(text);
  if ('offer' in reference) return reference.offer;
  const answer = await request(fetchImpl, 'credential_offer_uri', reference.offerUri, { method: 'GET' });
  return validateCredentialOffer(expectObject(answer, 'credential_offer_uri'));
}

/** §4.1.1's shape, with the Pre-Authorized Code grant this wallet uses. */
export function validateCredentialOffer(value: unknown): CredentialOffer {
  if (!isObject(value)) throw new Error('the credential offer is not a JSON object');
  checkIssuerUrl(value.credential_issuer, "the offer's credential_issuer");
  const ids = value.credential_configuration_ids;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string' && id.length > 0)) {
    throw new Error("the offer's credential_configuration_ids is not a non-empty array of strings");
  }
  if (new Set(ids).size !== ids.length) throw new Error("the offer's credential_configuration_ids repeats an id");
  if (!isObject(value.grants)) throw new Error('the offer has no grants (this wallet needs the pre-authorized code grant)');
  const grant = value.grants[PRE_AUTHORIZED_GRANT];
  if (!isObject(grant)) throw new Error('the offer has no pre-authorized code grant (the authorization code flow is not supported by this wallet)');
  const code = grant['pre-authorized_code'];
  if (typeof code !== 'string' || code.length === 0) throw new Error("the offer's pre-authorized_code is missing");
  if (grant.tx_code !== undefined) validateTxCode(grant.tx_code);
  if (grant.authorization_server !== undefined) checkIssuerUrl(grant.authorization_server, "the offer's authorization_server");
  return value as unknown as CredentialOffer;
}

function validateTxCode(txCode: unknown): void {
  if (!isObject(txCode)) throw new Error("the offer's tx_code is not an object");
  const { input_mode, length, description } = txCode;
  if (input_mode !== undefined && input_mode !== 'numeric' && input_mode !== 'text')
    throw new Error("the offer's tx_code.input_mode is neither numeric nor text");
  if (length !== undefined && (!Number.isInteger(length) || (length as number) < 1)) throw new Error("the offer's tx_code.length is not a positive integer");
  // §4.1.1: the description is at most 300 characters.
  if (description !== undefined && (typeof description !== 'string' || description.length > 300))
    throw new Error("the offer's tx_code.description is not a string of at most 300 characters");
}

/** Checks the code the person typed against the offer's description of it, before it is sent (§4.1.1, §6.1). */
export function checkTxCode(offer: CredentialOffer, txCode: string | undefined): void {
  const described = offer.grants[PRE_AUTHORIZED_GRANT].tx_code;
  if (!described) {
    if (txCode !== undefined) throw new Error('the offer asks for no transaction code, yet one was given');
    return;
  }
  if (txCode === undefined || txCode === '') throw new Error('the offer asks for a transaction code (--tx-code)');
  if ((described.input_mode ?? 'numeric') === 'numeric' && !/^[0-9]+$/.test(txCode)) throw new Error('the offer asks for a numeric transaction code');
  if (described.length !== undefined && txCode.length !== described.length)
    throw new Error(`the offer asks for a transaction code of ${described.length} characters`);
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${what} is not JSON`);
  }
}
