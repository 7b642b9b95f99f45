import { type DocumentType, documentType } from '../../../verifier-claims/document-type.js';
import { BadRequestError } from '../../../common/errors/app-error.js';

/**
 * binding_message (spec 4.7): plain text, JSON, or either of those Base64-encoded. JSON carries the
 * attributes of the 4.7 table; anything else is the text shown to the end user.
 */
export type DocumentKind = 'I' | 'P' | 'D' | 'V';

export interface BindingMessage {
  /** Text for the end user's device: the `bindingMessage` attribute, or the whole value when it is text. */
  text?: string;
  documentKinds?: DocumentKind[];
  showDocumentList?: boolean;
  transactionText?: { type: 'text' | 'markdown'; content: string };
  operation?: 'cancel';
  authReqId?: string;
  requestType?: 'Provisioning' | 'Authentication';
  appId?: string;
  /** Provisioning only; defaults to active (spec 3). */
  userStatus?: string;
}

/**
 * The document kinds of spec 4.7's `ntdr-doc-types` (I ID cards, P passport booklets, D driving licences, V visa or
 * crew credentials) from the MRZ document code, through the one classification of the document_type claim, so the
 * kind a merchant requires and the type it is told always agree (a crew member certificate, AC, is a V).
 */
const KIND_OF_TYPE: Readonly<Record<DocumentType, DocumentKind | 'other'>> = {
  PASSPORT: 'P',
  ID_CARD: 'I',
  RESIDENCE_PERMIT: 'I',
  CREW_MEMBER_CERTIFICATE: 'V',
  VISA: 'V',
  DRIVERS_LICENSE: 'D',
  OTHER: 'other',
};

export function documentKindOf(code: string): DocumentKind | 'other' {
  return KIND_OF_TYPE[documentType(code)];
}

/** A binding_message the merchant sent that cannot be read: its description is the merchant's to read. */
export class BindingMessageError extends BadRequestError {}

export const MAX_BINDING_MESSAGE_LENGTH = 8192;
export const MAX_TRANSACTION_TEXT_BASE64 = 1500;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const DOCUMENT_KINDS: readonly string[] = ['I', 'P', 'D', 'V'];

function decodeBase64Text(value: string): string | undefined {
  if (value.length < 4 || !(BASE64.test(value) || BASE64URL.test(value))) return undefined;
  const bytes = Buffer.from(value, BASE64.test(value) ? 'base64' : 'base64url');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  // Decoding arbitrary words as Base64 yields control bytes or replacement characters: then it was text.
  return /[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text) ? undefined : text;
}

function asObject(text: string): Record<string, unknown> | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    throw new BindingMessageError('binding_message looks like JSON but does not parse');
  }
}

function stringField(obj: Record<string, unknown>, name: string): string | undefined {
  const value = obj[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new BindingMessageError(`binding_message ${name} must be a string`);
  return value;
}

/* eslint-disable-next-line complexity -- one block per binding_message member, each validated and copied on its own;
   independent members, not one path */
function fromJson(obj: Record<string, unknown>): BindingMessage {
  const out: BindingMessage = {};
  const kinds = stringField(obj, 'ntdr-doc-types');
  if (kinds !== undefined) {
    const list = kinds
      .split(',')
      .map((k) => k.trim().toUpperCase())
      .filter(Boolean);
    const bad = list.filter((k) => !DOCUMENT_KINDS.includes(k));
    if (bad.length || !list.length) throw new BindingMessageError('binding_message ntdr-doc-types must list I, P, D or V');
    out.documentKinds = [...new Set(list)] as DocumentKind[];
  }
  const docList = obj['ntdr-app-doclist'];
  if (docList !== undefined) {
    if (typeof docList !== 'boolean' && docList !== 'true' && docList !== 'false')
      throw new BindingMessageError('binding_message ntdr-app-doclist must be a boolean');
    out.showDocumentList = docList === true || docList === 'true';
  }
  const transactionText = stringField(obj, 'transactiontext');
  if (transactionText !== undefined) {
    if (transactionText.length > MAX_TRANSACTION_TEXT_BASE64)
      throw new BindingMessageError(`binding_message transactiontext is longer than ${MAX_TRANSACTION_TEXT_BASE64} Base64 characters`);
    const type = stringField(obj, 'transactiontext_type') ?? 'text';
    if (type !== 'text' && type !== 'markdown') throw new BindingMessageError('binding_message transactiontext_type must be text or markdown');
    const content = decodeBase64Text(transactionText);
    if (content === undefined) throw new BindingMessageError('binding_message transactiontext must be Base64-encoded text');
    out.transactionText = { type, content };
  }
  const operation = stringField(obj, 'operation');
  if (operation !== undefined) {
    if (operation !== 'cancel') throw new BindingMessageError('binding_message operation must be cancel');
    out.operation = 'cancel';
    out.authReqId = stringField(obj, 'auth_req_id');
    if (!out.authReqId) throw new BindingMessageError('binding_message operation cancel needs auth_req_id');
  }
  const requestType = stringField(obj, 'requestType');
  if (requestType !== undefined) {
    if (requestType !== 'Provisioning' && requestType !== 'Authentication')
      throw new BindingMessageError('binding_message requestType must be Provisioning or Authentication');
    out.requestType = requestType;
  }
  out.appId = stringField(obj, 'appId');
  out.text = stringField(obj, 'bindingMessage');
  const userStatus = stringField(obj, 'userStatus');
  if (out.requestType === 'Provisioning') out.userStatus = userStatus ?? 'active';
  else if (userStatus !== undefined) throw new BindingMessageError('binding_message userStatus applies to provisioning only');
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as BindingMessage;
}

/**
 * Embedding, override and isolate controls (Unicode bidi, UAX #9) make text display in another order than
 * it is stored: "Pay 100 to …" could read as another amount or payee on the user's screen. Text a person
 * confirms must read as it is sent, so these are refused (the marks U+200E/U+200F stay allowed).
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;

function refuseBidiControls(text: string | undefined, name: string): void {
  if (text !== undefined && BIDI_CONTROLS.test(text))
    throw new BindingMessageError(`${name} contains bidirectional control characters (U+202A-U+202E, U+2066-U+2069)`);
}

export function parseBindingMessage(value: string): BindingMessage {
  const message = parseBindingMessageValue(value);
  refuseBidiControls(message.text, 'binding_message');
  refuseBidiControls(message.transactionText?.content, 'binding_message transactiontext');
  return message;
}

function parseBindingMessageValue(value: string): BindingMessage {
  if (value.length > MAX_BINDING_MESSAGE_LENGTH) throw new BindingMessageError(`binding_message is longer than ${MAX_BINDING_MESSAGE_LENGTH} characters`);
  const direct = asObject(value);
  if (direct) return fromJson(direct);
  const decoded = decodeBase64Text(value.trim());
  if (decoded !== undefined) {
    const decodedObject = asObject(decoded);
    return decodedObject ? fromJson(decodedObject) : { text: decoded };
  }
  return { text: value };
}

/** svc_context (spec 4.2): Base64-encoded JSON text to display; answered as readable text. */
export function parseServiceContext(value: string): string {
  const decoded = decodeBase64Text(value.trim());
  if (decoded === undefined) throw new BindingMessageError('svc_context must be Base64-encoded JSON');
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoded);
  } catch {
    throw new BindingMessageError('svc_context must be Base64-encoded JSON');
  }
  refuseBidiControls(decoded, 'svc_context');
  if (typeof parsed === 'string') return parsed;
  if (parsed && typeof parsed === 'object')
    return Object.entries(parsed as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join('\n');
  return String(parsed);
}
