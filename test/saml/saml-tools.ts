import { newKeyAndCertificate } from '../../src/saml/keys/self-signed.js';

/** A key and self-signed certificate such as a merchant would register (CN only). */
export async function merchantCertificate(cn = 'shop.example'): Promise<string> {
  return (await newKeyAndCertificate(`CN=${cn}`, 1)).certificatePem;
}
