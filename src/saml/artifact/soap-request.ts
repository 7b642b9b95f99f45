import type { Element } from '@xmldom/xmldom';
import { xmldom } from '../xml-libraries.js';
import { SAML_NS } from '../assertion/saml-names.js';
import { samlSoapFault } from '../saml.errors.js';

/** A SOAP artifact request is a few hundred bytes; the body parser refuses more than this before we parse. */
export const MAX_SOAP_REQUEST_BYTES = 16 * 1024;
/** SAML 1.1 IDs are xsd:ID (NCName); bounded so a RequestID echoed into our answer stays small. */
const NCNAME = /^[A-Za-z_][A-Za-z0-9._-]{0,255}$/;

export interface ArtifactRequest {
  requestId: string;
  artifact: string;
}

/**
 * Reads a SOAP 1.1 envelope carrying one SAML 1.1 `samlp:Request` with one `samlp:AssertionArtifact`.
 * Safe parsing: a document type declaration is refused before parsing (no DTD, so no entity of any kind,
 * internal or external, can be declared or expanded), xmldom fetches nothing, every parser warning stops
 * the parse, and the size is bounded by the body parser. Anything else than this one shape is a SOAP
 * Client fault: a request for several artifacts, or for other queries, is not served.
 */
/* eslint-disable-next-line complexity -- the one accepted SOAP shape checked step by step, each step a guard with its
   own SOAP fault message */
export function parseArtifactRequest(body: string): ArtifactRequest {
  if (body.length > MAX_SOAP_REQUEST_BYTES) throw samlSoapFault('the request is too large');
  if (/<!DOCTYPE|<!ENTITY/i.test(body)) throw samlSoapFault('document type declarations are not accepted');
  const { DOMParser, onWarningStopParsing } = xmldom();
  let root: Element | null;
  try {
    root = new DOMParser({ onError: onWarningStopParsing }).parseFromString(body, 'text/xml').documentElement;
  } catch {
    throw samlSoapFault('the request is not well-formed XML');
  }
  if (!root || !is(root, SAML_NS.soap, 'Envelope')) throw samlSoapFault('the request is not a SOAP 1.1 envelope');
  const parts = elements(root);
  const header = parts.find((e) => is(e, SAML_NS.soap, 'Header'));
  // A header block we are told we must understand, and do not: SOAP 1.1 §4.2.3 says refuse the message.
  if (header && elements(header).some((h) => h.getAttributeNS(SAML_NS.soap, 'mustUnderstand') === '1'))
    throw samlSoapFault('a SOAP header marked mustUnderstand is not understood');
  const bodies = parts.filter((e) => is(e, SAML_NS.soap, 'Body'));
  if (bodies.length !== 1 || parts.some((e) => e !== header && e !== bodies[0]))
    throw samlSoapFault('the envelope must hold one Body (after an optional Header)');
  const [request, ...more] = elements(bodies[0]);
  if (!request || more.length || !is(request, SAML_NS.protocol, 'Request')) throw samlSoapFault('the SOAP Body must hold one SAML 1.1 samlp:Request');
  if (request.getAttribute('MajorVersion') !== '1' || !['0', '1'].includes(request.getAttribute('MinorVersion') ?? ''))
    throw samlSoapFault('the samlp:Request must be SAML 1.0 or 1.1 (MajorVersion 1)');
  const requestId = request.getAttribute('RequestID') ?? '';
  if (!NCNAME.test(requestId)) throw samlSoapFault('the samlp:Request needs a RequestID that is an XML ID');
  // The request's own signature (optional in SAML 1.1) is not what authenticates it here: HTTP Basic is.
  const queries = elements(request).filter((e) => !is(e, SAML_NS.dsig, 'Signature') && !is(e, SAML_NS.protocol, 'RespondWith'));
  if (queries.length !== 1 || !is(queries[0], SAML_NS.protocol, 'AssertionArtifact'))
    throw samlSoapFault('the samlp:Request must ask for exactly one samlp:AssertionArtifact');
  const artifact = (queries[0].textContent ?? '').trim();
  if (!artifact || artifact.length > 128) throw samlSoapFault('the samlp:AssertionArtifact is empty or too long');
  return { requestId, artifact };
}

function is(e: Element, ns: string, localName: string): boolean {
  return e.namespaceURI === ns && e.localName === localName;
}

/** Element children (text, comments and whitespace between them ignored). */
function elements(parent: Element): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
}
