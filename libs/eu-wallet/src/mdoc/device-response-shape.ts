import { DataItem } from '@animo-id/mdoc';
import { WalletCheckError } from '../errors.js';
import { decodeGuarded } from './cbor-guard.js';

/**
 * The parts of one Document of a DeviceResponse (ISO 18013-5 8.3.2.1.2.2) that the checks need, read from the
 * guarded decode before the mdoc library sees anything: the library decodes byte strings of the structure on its own
 * (COSE protected headers, the MSO, validityInfo values that are byte strings) and trusts their shape (a missing
 * validityInfo is a TypeError there), so everything it will touch is shaped and typed here first.
 */
export interface DocumentShape {
  docType: string;
  mso: MsoShape;
  issuerAuthAlg: unknown;
  x5chain: Uint8Array[];
  /** Issuer-signed items by namespace: each item's decoded map and the tag-24 item whose bytes are digested. */
  items: Map<string, { digestId: number; elementIdentifier: string; elementValue: unknown }[]>;
  deviceNameSpacesBytes: DataItem;
  deviceSignature: { protectedHeaders: Map<unknown, unknown>; protectedBytes: Uint8Array; signature: Uint8Array } | undefined;
  hasDeviceMac: boolean;
}

/** The MobileSecurityObject (ISO 18013-5 9.1.2.4), checked for type. */
export interface MsoShape {
  docType: string;
  digestAlgorithm: string;
  valueDigests: Map<string, Map<number, Uint8Array>>;
  deviceKey: Map<unknown, unknown>;
  validFrom: Date;
  validUntil: Date;
  signed: Date;
  status: { uri: string; idx: number } | undefined;
}

const bad = (what: string): never => {
  throw new WalletCheckError('malformed', `the DeviceResponse is malformed: ${what}`);
};
const isMap = (v: unknown): v is Map<unknown, unknown> => v instanceof Map;
const isBytes = (v: unknown): v is Uint8Array => v instanceof Uint8Array;
const map = (v: unknown, what: string): Map<unknown, unknown> => (isMap(v) ? v : bad(`${what} is not a map`));
const bytes = (v: unknown, what: string): Uint8Array => (isBytes(v) ? v : bad(`${what} is not a byte string`));
const text = (v: unknown, what: string): string => (typeof v === 'string' ? v : bad(`${what} is not text`));
const uint = (v: unknown, what: string): number => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : bad(`${what} is not an unsigned integer`));
const array = (v: unknown, what: string): unknown[] => (Array.isArray(v) ? v : bad(`${what} is not an array`));
const date = (v: unknown, what: string): Date => (v instanceof Date && !Number.isNaN(v.getTime()) ? v : bad(`${what} is not a tdate`));
const dataItem = (v: unknown, what: string): DataItem => (v instanceof DataItem ? v : bad(`${what} is not an embedded CBOR item (tag 24)`));
/** A tag-24 item's contents were walked by the guard; decoding them can still throw (a bad tdate string). */
const dataOf = (item: DataItem, what: string): unknown => {
  try {
    return item.data;
  } catch (cause) {
    throw new WalletCheckError('malformed', `${what} does not decode`, { cause });
  }
};

/** DeviceResponse (ISO 18013-5 8.3.2.1.2.2): version, documents, status; returns the documents and the status. */
export function readDeviceResponse(raw: Uint8Array): { documents: unknown[]; status: number } {
  const top = map(decodeGuarded(raw), 'the DeviceResponse');
  // ISO 18013-5 8.3.2.1.2.2: version "1.0"; a later minor version keeps the structure, so 1.x is read.
  if (!/^1\.\d+$/.test(text(top.get('version'), 'version'))) bad('version is not 1.x');
  const documents = top.has('documents') ? array(top.get('documents'), 'documents') : [];
  return { documents, status: uint(top.get('status'), 'status') };
}

export function readDocument(document: unknown): DocumentShape {
  const doc = map(document, 'the document');
  const docType = text(doc.get('docType'), 'docType');
  const issuerSigned = map(doc.get('issuerSigned'), 'issuerSigned');
  const issuerAuth = array(issuerSigned.get('issuerAuth'), 'issuerAuth');
  if (issuerAuth.length !== 4) bad('issuerAuth is not a COSE_Sign1');
  const protectedHeaders = map(decodeGuarded(bytes(issuerAuth[0], 'the issuerAuth protected header')), 'the issuerAuth protected header');
  const unprotected = map(issuerAuth[1], 'the issuerAuth unprotected header');
  bytes(issuerAuth[3], 'the issuerAuth signature');
  // ISO 18013-5 9.1.2.4: x5chain (label 33) in the unprotected header, one certificate or an array of them.
  const x5 = unprotected.get(33) ?? protectedHeaders.get(33);
  const x5chain = (Array.isArray(x5) ? x5 : [x5]).map((c, i) => bytes(c, `x5chain certificate ${i}`));
  // The payload is MobileSecurityObjectBytes = #6.24(bstr .cbor MobileSecurityObject).
  const msoItem = dataItem(decodeGuarded(bytes(issuerAuth[2], 'the issuerAuth payload')), 'the MSO');
  const device = map(doc.get('deviceSigned'), 'deviceSigned');
  const deviceAuth = map(device.get('deviceAuth'), 'deviceAuth');
  const deviceNameSpacesBytes = dataItem(device.get('nameSpaces'), 'the device nameSpaces');
  map(dataOf(deviceNameSpacesBytes, 'the device nameSpaces'), 'the device nameSpaces');
  return {
    docType,
    mso: readMso(dataOf(msoItem, 'the MSO')),
    issuerAuthAlg: protectedHeaders.get(1),
    x5chain,
    items: readItems(issuerSigned.get('nameSpaces')),
    deviceNameSpacesBytes,
    deviceSignature: deviceAuth.has('deviceSignature') ? readDeviceSignature(deviceAuth.get('deviceSignature')) : undefined,
    hasDeviceMac: deviceAuth.has('deviceMac'),
  };
}

function readItems(value: unknown): DocumentShape['items'] {
  const items: DocumentShape['items'] = new Map();
  for (const [ns, list] of map(value ?? new Map(), 'the issuer nameSpaces')) {
    const seen = new Set<string>();
    const entries = array(list, `namespace ${text(ns, 'a namespace')}`).map((entry) => {
      const item = map(dataOf(dataItem(entry, 'an IssuerSignedItem'), 'an IssuerSignedItem'), 'an IssuerSignedItem');
      bytes(item.get('random'), 'an IssuerSignedItem random');
      const elementIdentifier = text(item.get('elementIdentifier'), 'an elementIdentifier');
      if (seen.has(elementIdentifier)) bad(`element ${elementIdentifier} twice in ${ns as string}`);
      seen.add(elementIdentifier);
      if (!item.has('elementValue')) bad(`element ${elementIdentifier} has no value`);
      return { digestId: uint(item.get('digestID'), 'a digestID'), elementIdentifier, elementValue: item.get('elementValue') };
    });
    items.set(ns as string, entries);
  }
  return items;
}

function readDeviceSignature(value: unknown): DocumentShape['deviceSignature'] {
  const sign1 = array(value, 'deviceSignature');
  // ISO 18013-5 9.1.3.6: a COSE_Sign1 with a detached (null) payload.
  if (sign1.length !== 4 || sign1[2] !== null) bad('deviceSignature is not a COSE_Sign1 with a detached payload');
  const protectedBytes = bytes(sign1[0], 'the deviceSignature protected header');
  map(sign1[1], 'the deviceSignature unprotected header');
  return {
    protectedHeaders: map(decodeGuarded(protectedBytes), 'the deviceSignature protected header'),
    protectedBytes,
    signature: bytes(sign1[3], 'the device signature'),
  };
}

function readMso(value: unknown): MsoShape {
  const mso = map(value, 'the MSO');
  if (mso.get('version') !== '1.0') bad('the MSO version is not 1.0');
  const valueDigests = new Map<string, Map<number, Uint8Array>>();
  for (const [ns, digests] of map(mso.get('valueDigests'), 'valueDigests')) {
    const byId = new Map<number, Uint8Array>();
    for (const [id, digest] of map(digests, 'valueDigests of a namespace')) byId.set(uint(id, 'a digestID'), bytes(digest, 'a digest'));
    valueDigests.set(text(ns, 'a namespace'), byId);
  }
  const deviceKeyInfo = map(mso.get('deviceKeyInfo'), 'deviceKeyInfo');
  const validity = map(mso.get('validityInfo'), 'validityInfo');
  return {
    docType: text(mso.get('docType'), 'the MSO docType'),
    digestAlgorithm: text(mso.get('digestAlgorithm'), 'digestAlgorithm'),
    valueDigests,
    deviceKey: map(deviceKeyInfo.get('deviceKey'), 'deviceKey'),
    signed: date(validity.get('signed'), 'validityInfo.signed'),
    validFrom: date(validity.get('validFrom'), 'validityInfo.validFrom'),
    validUntil: date(validity.get('validUntil'), 'validityInfo.validUntil'),
    status: readStatus(mso.get('status')),
  };
}

/**
 * ISO 18013-5 (2nd edition) and IETF Token Status List (section 6.3, "Referenced Token in COSE"): the MSO's
 * `status` holds `status_list: {idx, uri}`. Other status mechanisms (identifier lists) are refused as unknown shapes.
 */
function readStatus(value: unknown): MsoShape['status'] {
  if (value === undefined) return undefined;
  const list = map(map(value, 'status').get('status_list'), 'status.status_list');
  return { idx: uint(list.get('idx'), 'status_list.idx'), uri: text(list.get('uri'), 'status_list.uri') };
}
