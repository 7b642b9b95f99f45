import { DeviceSignedDocument, parseDeviceResponse } from '@animo-id/mdoc';
import { WalletCheckError } from '../errors.js';
import type { CredentialSigner } from '../status-list/status-issuer.js';
import type { RevocationCheck } from '../trust/revocation-checker.js';
import { deviceResponseBytes } from './cbor-guard.js';
import { checkDeviceAuth } from './device-auth.js';
import { readDeviceResponse, readDocument, type DocumentShape } from './device-response-shape.js';
import { presentedElements } from './element-values.js';
import { checkIssuerAuth } from './issuer-auth.js';
import { verifierContext } from './mdoc-context.js';

export interface MdocPresentationInput {
  /** The DeviceResponse: base64url as vp_token carries it (OpenID4VP 1.0 Appendix B.2.4), or its bytes. */
  deviceResponse: string | Uint8Array;
  /** The plain SessionTranscript of this request, from openId4VpSessionTranscript (never one the wallet sent). */
  sessionTranscript: Uint8Array;
  /** DER of the IACA roots trusted for this docType. */
  trustAnchors: Uint8Array[];
  expectedDocType: string;
  now: Date;
  /** Revocation of the Document Signer's and the IACA's certificates (CRLs); without it, none is checked. */
  revocation?: RevocationCheck;
}

export interface MdocPresentation {
  docType: string;
  /** Issuer-signed elements presented, by namespace then element identifier (values made plain: see plainValue). */
  elements: Record<string, Record<string, unknown>>;
  issuer: { subject: string; anchorSubject: string; country?: string };
  /** Who signed it (the Document Signer and its IACA), for the Status List Token's issuer rule. */
  signer: CredentialSigner;
  validUntil: Date;
  /** When the MSO was signed (validityInfo `signed`, ISO 18013-5 9.1.2.4). */
  signedAt: Date;
  /** The MSO's Token Status List reference, unchecked here (the status module fetches and reads the list). */
  status?: { uri: string; idx: number };
}

const oneLine = (name: string) => name.replace(/\n/g, ', ');

/**
 * Verifies an mdoc presentation of OpenID4VP 1.0 (a DeviceResponse of ISO 18013-5 8.3.2.1.2.2 in vp_token) against
 * this request's session transcript. Every refusal is a WalletCheckError; anything else the decoder or the mdoc
 * library throws on a hostile input becomes `malformed`.
 */
export async function verifyMdocPresentation(input: MdocPresentationInput): Promise<MdocPresentation> {
  try {
    return await verify(input);
  } catch (error) {
    if (error instanceof WalletCheckError) throw error;
    throw new WalletCheckError('malformed', 'the mdoc presentation could not be read', { cause: error });
  }
}

async function verify(input: MdocPresentationInput): Promise<MdocPresentation> {
  const raw = deviceResponseBytes(input.deviceResponse);
  const { documents, status } = readDeviceResponse(raw);
  // ISO 18013-5 8.3.2.1.2.3: status 0 is OK; 10-12 are the wallet's own errors.
  if (status !== 0) throw new WalletCheckError('malformed', `the DeviceResponse reports status ${status}`);
  // One credential is asked per query; more (or none) is not what was asked.
  if (documents.length !== 1) throw new WalletCheckError('unexpected_credential', `the DeviceResponse holds ${documents.length} documents, not one`);
  const shape = readDocument(documents[0]);
  checkDocType(shape, input.expectedDocType);
  checkDeviceAuthForm(shape);
  const document = parseWithLibrary(raw);
  const ctx = verifierContext(input.trustAnchors, input.now);
  const chain = await checkIssuerAuth(shape, document, input.trustAnchors, input.now, ctx);
  checkDeviceAuth(shape, input.sessionTranscript);
  // ISO/IEC 18013-5 Annex B: the IACA's CRL covers its Document Signers. Last, as it may fetch: a forgery costs no request.
  await input.revocation?.checkPath(chain.path);
  const country = chain.leaf.subject
    .split('\n')
    .find((line) => line.startsWith('C='))
    ?.slice(2);
  return {
    docType: shape.docType,
    elements: presentedElements(shape),
    issuer: { subject: oneLine(chain.leaf.subject), anchorSubject: oneLine(chain.anchor.subject), ...(country ? { country } : {}) },
    signer: { leaf: chain.leaf, anchor: chain.anchor, format: 'mdoc' },
    validUntil: shape.mso.validUntil,
    signedAt: shape.mso.signed,
    ...(shape.mso.status ? { status: shape.mso.status } : {}),
  };
}

/** The Document's docType, the one the MSO signs (ISO 18013-5 9.3.1 step 6) and the one asked must all agree. */
function checkDocType(shape: DocumentShape, expected: string): void {
  if (shape.docType !== expected) throw new WalletCheckError('unexpected_credential', `docType ${shape.docType} was not asked (${expected} was)`);
  if (shape.mso.docType !== shape.docType) throw new WalletCheckError('unexpected_credential', 'the MSO signs another docType than the document names');
}

/** Refused before the library parses it: the library would decode a deviceMac's headers and try a MAC key. */
function checkDeviceAuthForm(shape: DocumentShape): void {
  if (shape.hasDeviceMac || !shape.deviceSignature) {
    throw new WalletCheckError('wrong_binding', 'DeviceAuth is not a deviceSignature (deviceMac needs a reader key OpenID4VP does not have)');
  }
}

/** The library's own parse, for its Verifier; run only on bytes the guard and the shape check above accepted. */
function parseWithLibrary(raw: Uint8Array): DeviceSignedDocument {
  try {
    const [document] = parseDeviceResponse(raw).documents;
    if (document instanceof DeviceSignedDocument) return document;
  } catch (cause) {
    throw new WalletCheckError('malformed', 'the mdoc library cannot parse the DeviceResponse', { cause });
  }
  throw new WalletCheckError('malformed', 'the document has no deviceSigned part');
}
