/**
 * An mdoc presentation for OpenID4VP 1.0 (Appendix B.2): a DeviceResponse made with @auth0/mdl (never with the
 * verifier's @animo-id/mdoc) disclosing only the asked elements, DeviceAuth signed by the device key over the
 * wallet's own session transcript.
 */
import type { JWK } from 'jose';
import { holderSessionTranscript, taggedTranscript } from './holder-transcript.js';

export interface MdocPresentationOptions {
  /** The issued mdoc (IssuerSigned document, CBOR). */
  mdoc: Uint8Array;
  docType: string;
  /** [namespace, element] pairs the DCQL query asks for. */
  elements: [string, string][];
  deviceKey: JWK;
  clientId: string;
  nonce: string;
  encryptionJwk: JWK | null;
  responseUri: string;
}

/** The DeviceResponse, base64url, as vp_token carries it. */
export async function presentMdoc(options: MdocPresentationOptions): Promise<string> {
  const transcript = await holderSessionTranscript(options);
  const definition = {
    id: 'wallet',
    input_descriptors: [
      {
        id: options.docType,
        format: { mso_mdoc: { alg: ['ES256'] } },
        constraints: {
          limit_disclosure: 'required',
          fields: options.elements.map(([ns, element]) => ({ path: [`$['${ns}']['${element}']`], intent_to_retain: false })),
        },
      },
    ],
  };
  // Loaded on first use: see holder-transcript.ts (CommonJS requiring an ES module beside the service).
  const { DeviceResponse } = await import('@auth0/mdl');
  const response = await DeviceResponse.from(options.mdoc)
    .usingPresentationDefinition(definition)
    .usingSessionTranscriptBytes(await taggedTranscript(transcript))
    .authenticateWithSignature(options.deviceKey as never, 'ES256')
    .sign();
  return Buffer.from(response.encode()).toString('base64url');
}
