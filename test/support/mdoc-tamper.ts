/**
 * Edits of an encoded DeviceResponse for the attack tests, with @auth0/mdl's CBOR (the holder's library): each
 * changes one thing a wallet or a thief could change, and leaves every signature as it was.
 */
import { cborDecode, cborEncode, DataItem } from '@auth0/mdl/lib/cbor/index.js';

type CborMap = Map<string, unknown>;

/** Decodes a DeviceResponse, lets `edit` change it in place, encodes it again. */
export function editResponse(response: Uint8Array, edit: (top: CborMap, doc: CborMap) => void): Uint8Array {
  // A copy: the decoder's byte strings are views of its input, and an edit must not reach the caller's bytes.
  const top = cborDecode(Buffer.from(response)) as CborMap;
  const [doc] = top.get('documents') as CborMap[];
  edit(top, doc);
  return new Uint8Array(cborEncode(top));
}

export const issuerItems = (doc: CborMap, namespace: string): DataItem[] =>
  ((doc.get('issuerSigned') as CborMap).get('nameSpaces') as Map<string, DataItem[]>).get(namespace)!;

/** Rewrites one IssuerSignedItem's decoded map (element value, digestID...), re-encoding its tag-24 bytes. */
export function editItem(doc: CborMap, namespace: string, elementIdentifier: string, edit: (item: Map<string, unknown>) => void): void {
  const items = issuerItems(doc, namespace);
  const index = items.findIndex((item) => (item.data as Map<string, unknown>).get('elementIdentifier') === elementIdentifier);
  const copy = new Map(items[index].data as Map<string, unknown>);
  edit(copy);
  items[index] = DataItem.fromData(copy);
}

export const issuerAuth = (doc: CborMap): unknown[] => (doc.get('issuerSigned') as CborMap).get('issuerAuth') as unknown[];

/** A P-256 public key as the COSE_Key bytes @auth0/mdl takes for the reader's ephemeral key. */
export function coseKeyBytes(jwk: { x?: string; y?: string }): Uint8Array {
  const key = new Map<number, unknown>([
    [1, 2],
    [-1, 1],
    [-2, Buffer.from(jwk.x!, 'base64url')],
    [-3, Buffer.from(jwk.y!, 'base64url')],
  ]);
  return new Uint8Array(cborEncode(key));
}

export { cborDecode, cborEncode };
