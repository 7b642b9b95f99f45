import { createHash } from 'node:crypto';
import { cborEncode, DataItem } from '@animo-id/mdoc';

/** What binds an mdoc presentation to one OpenID4VP request, all from the signed request object. */
export interface OpenId4VpHandoverInput {
  /** `client_id` with its client identifier prefix (`x509_hash:…`). */
  clientId: string;
  nonce: string;
  /** RFC 7638 SHA-256 thumbprint of the verifier's response encryption key, as bytes (null: unencrypted response). */
  jwkThumbprint: Uint8Array | null;
  /** `response_uri` of `direct_post(.jwt)`. */
  responseUri: string;
}

/**
 * The SessionTranscript of OpenID4VP 1.0 Appendix B.2.6.1 (invocation via redirects):
 * `[null, null, ["OpenID4VPHandover", SHA-256(cbor([clientId, nonce, jwkThumbprint, responseUri]))]]`,
 * as CBOR bytes. The mdoc libraries of this field implement only the ISO 18013-7 draft handover, so the service
 * makes the 1.0 one itself (checked against the specification's example bytes). Encoded with the verifier library's
 * own CBOR encoder (byte strings as major type 2, maps and arrays as ISO 18013-5 writes them).
 */
export function openId4VpSessionTranscript(input: OpenId4VpHandoverInput): Uint8Array {
  const info = cborEncode([input.clientId, input.nonce, input.jwkThumbprint, input.responseUri]);
  const infoHash = createHash('sha256').update(info).digest();
  return cborEncode([null, null, ['OpenID4VPHandover', new Uint8Array(infoHash)]]);
}

/**
 * `SessionTranscriptBytes` = `#6.24(bstr .cbor SessionTranscript)`, the form DeviceAuthentication embeds. The mdoc
 * libraries expect this tag-24 form: given the plain transcript they sign and verify over `undefined`, so a device
 * signature made for one transcript would pass against any other. Always hand them this.
 */
export function sessionTranscriptBytes(transcript: Uint8Array): Uint8Array {
  return cborEncode(new DataItem({ buffer: transcript }));
}
