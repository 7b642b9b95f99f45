/**
 * The wallet's own reading of OpenID4VP 1.0 Appendix B.2.6.1: the SessionTranscript with the OpenID4VPHandover,
 * encoded with @auth0/mdl's CBOR (its DataItem), not with the verifier's encoder, so that the two ends of a test
 * do not share one implementation. Returned as the tag-24 bytes @auth0/mdl signs DeviceAuthentication over.
 */
import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';

// @auth0/mdl is CommonJS and require()s pkijs, an ES module: imported statically beside a test that loads pkijs
// itself (the auth-files tests read CMS with it), jest refuses the require(esm) cycle. Loaded once, on first use, after the test's module graph.
const mdl = import('@auth0/mdl');

/** CBOR of any value: @auth0/mdl's DataItem keeps the encoding of its data. */
const cbor = async (value: unknown): Promise<Buffer> => Buffer.from((await mdl).DataItem.fromData(value).buffer);

export interface HolderHandover {
  clientId: string;
  nonce: string;
  /** The verifier's response encryption key from client_metadata.jwks (null: an unencrypted response). */
  encryptionJwk: JWK | null;
  responseUri: string;
}

export async function holderSessionTranscript(input: HolderHandover): Promise<Buffer> {
  const thumbprint = input.encryptionJwk ? Buffer.from(await calculateJwkThumbprint(input.encryptionJwk, 'sha256'), 'base64url') : null;
  const info = createHash('sha256')
    .update(await cbor([input.clientId, input.nonce, thumbprint, input.responseUri]))
    .digest();
  return cbor([null, null, ['OpenID4VPHandover', info]]);
}

/** SessionTranscriptBytes: tag 24 around the transcript's bytes (ISO 18013-5 9.1.5.1), as @auth0/mdl encodes a DataItem. */
export const taggedTranscript = async (transcript: Buffer): Promise<Buffer> => cbor(new (await mdl).DataItem({ buffer: transcript }));
