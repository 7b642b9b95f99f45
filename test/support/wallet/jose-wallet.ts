/**
 * The wallet's side of OpenID4VP 1.0 for tests: the test wallet's own request reading and response encryption (jose
 * and node:crypto only, no @openid4vc code), so the verifier's request and response code is checked against an
 * independent reading of the specification.
 */
import { WalletCheckError } from '@identity-broker/eu-wallet';

export { readRequestObject as walletReadsRequest, type RequestView as WalletView } from '../../../scripts/test-wallet/request-object.js';
export { encryptResponse as walletEncrypts, type EncryptOptions } from '../../../scripts/test-wallet/encrypt-response.js';

/** `code: message` of a WalletCheckError, 'accepted' if none; any other exception fails the test. */
export async function refusal(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (e) {
    if (e instanceof WalletCheckError) return `${e.code}: ${e.message}`;
    throw e;
  }
  return 'accepted';
}
