/**
 * The holder side of the mdoc tests, on @auth0/mdl (never on @animo-id/mdoc, whose reading of ISO 18013-5 the
 * verifier shares: a misreading would be mirrored and pass). Builds a DeviceResponse over a session transcript and
 * signs DeviceAuth with the device key, as a wallet does for OpenID4VP 1.0.
 */
import { generateKeyPairSync } from 'node:crypto';
import { DeviceResponse } from '@auth0/mdl';
import type { JWK } from 'jose';
import { sessionTranscriptBytes } from '@identity-broker/eu-wallet';

export interface DeviceKeys {
  privateJwk: JWK;
  publicJwk: JWK;
}

export function createDeviceKeys(namedCurve: 'P-256' | 'P-384' = 'P-256'): DeviceKeys {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve });
  return { privateJwk: privateKey.export({ format: 'jwk' }) as JWK, publicJwk: publicKey.export({ format: 'jwk' }) as JWK };
}

export interface PresentOptions {
  /** The issued mdoc bytes (issueTestMdoc). */
  mdoc: Uint8Array;
  docType: string;
  /** What the verifier asks: namespace and element identifiers (selective disclosure: only these are presented). */
  namespace: string;
  elements: string[];
  /** The plain SessionTranscript the wallet computes; tag-24-wrapped here as DeviceAuthentication embeds it. */
  transcript: Uint8Array;
  device: DeviceKeys;
  /** The device signature's algorithm (ES256 unless said). */
  alg?: 'ES256' | 'ES384';
  /** deviceMac instead of deviceSignature (ISO 18013-5 9.1.3.5), with this reader ephemeral public key (raw bytes). */
  macWithReaderKey?: Uint8Array;
}

export async function presentMdoc(options: PresentOptions): Promise<Uint8Array> {
  const presentation = {
    id: 'mdoc-test',
    input_descriptors: [
      {
        id: options.docType,
        format: { mso_mdoc: { alg: ['ES256'] } },
        constraints: {
          limit_disclosure: 'required',
          fields: options.elements.map((id) => ({ path: [`$['${options.namespace}']['${id}']`], intent_to_retain: false })),
        },
      },
    ],
  };
  const builder = DeviceResponse.from(options.mdoc)
    .usingPresentationDefinition(presentation)
    .usingSessionTranscriptBytes(Buffer.from(sessionTranscriptBytes(options.transcript)));
  const signed = options.macWithReaderKey
    ? builder.authenticateWithMAC(options.device.privateJwk as never, options.macWithReaderKey, 'HS256')
    : builder.authenticateWithSignature(options.device.privateJwk as never, options.alg ?? 'ES256');
  return new Uint8Array((await signed.sign()).encode());
}
