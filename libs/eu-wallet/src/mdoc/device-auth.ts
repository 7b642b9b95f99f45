import { cborDecode, cborEncode, COSEKey, DataItem } from '@animo-id/mdoc';
import type { JWK } from 'jose';
import { WalletCheckError } from '../errors.js';
import type { DocumentShape } from './device-response-shape.js';
import { COSE_ALGORITHMS, verifyEs } from './mdoc-context.js';

/**
 * DeviceAuth (ISO 18013-5 9.1.3): binds the presentation to this request. OpenID4VP 1.0 (Appendix B.2.6) gives the
 * wallet no reader key, so only `deviceSignature` (9.1.3.6) can bind; `deviceMac` (9.1.3.5) is refused.
 *
 * DeviceAuthentication is built here, not by @animo-id/mdoc: the library decodes and re-encodes the device-signed
 * nameSpaces (a holder whose encoding differs would be refused) and, handed a plain transcript instead of its tag-24
 * form, signs and verifies over `undefined`. Here the transcript is always ours and the nameSpaces bytes are the
 * ones the wallet sent:
 *   DeviceAuthenticationBytes = #6.24(bstr .cbor ["DeviceAuthentication", SessionTranscript, DocType,
 *                               DeviceNameSpacesBytes])        (9.1.3.4)
 * and the signature is a COSE_Sign1 with that as detached payload (RFC 9052 section 4.4, empty external_aad).
 */
export function checkDeviceAuth(shape: DocumentShape, sessionTranscript: Uint8Array): void {
  if (shape.hasDeviceMac || !shape.deviceSignature) {
    throw new WalletCheckError('wrong_binding', 'DeviceAuth is not a deviceSignature (deviceMac needs a reader key OpenID4VP does not have)');
  }
  const { protectedHeaders, protectedBytes, signature } = shape.deviceSignature;
  const headerAlg = protectedHeaders.get(1);
  const alg = typeof headerAlg === 'number' ? COSE_ALGORITHMS.get(headerAlg) : undefined;
  if (!alg) throw new WalletCheckError('unexpected_credential', 'the deviceSignature algorithm is not one of ES256, ES384, ES512');
  const deviceKey = deviceKeyJwk(shape.mso.deviceKey);
  const transcript: unknown = cborDecode(sessionTranscript);
  // The plain SessionTranscript (an array, ISO 18013-5 9.1.5.1) is what DeviceAuthentication embeds; its tag-24 form
  // handed here by mistake would embed a byte string and refuse every wallet, so it is named as the caller's error.
  if (!Array.isArray(transcript)) throw new WalletCheckError('malformed', 'the session transcript given is not the plain SessionTranscript array');
  const deviceAuthentication = cborEncode(DataItem.fromData(['DeviceAuthentication', transcript, shape.docType, shape.deviceNameSpacesBytes]));
  const toBeSigned = cborEncode(['Signature1', protectedBytes, new Uint8Array(0), deviceAuthentication]);
  if (!verifyEs(alg.name, deviceKey, toBeSigned, signature)) {
    throw new WalletCheckError('wrong_binding', "the device signature does not verify over this request's session transcript");
  }
}

/** MSO deviceKeyInfo.deviceKey is a COSE_Key (RFC 9052 section 7); only EC2 keys (kty 2) are usable for ES*. */
function deviceKeyJwk(coseKey: Map<unknown, unknown>): JWK {
  if (coseKey.get(1) !== 2) throw new WalletCheckError('unexpected_credential', 'the device key is not an EC2 COSE key');
  try {
    return COSEKey.import(coseKey as Map<number, unknown>).toJWK();
  } catch (cause) {
    throw new WalletCheckError('malformed', 'the device key is not a usable COSE key', { cause });
  }
}
