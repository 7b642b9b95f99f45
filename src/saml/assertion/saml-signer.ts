import { xmlCrypto } from '../xml-libraries.js';
import { ALG } from './saml-names.js';

export interface SamlSigningKey {
  privateKeyPem: string;
  certificatePem: string;
}

/**
 * Enveloped XML signature over the document's root element (RSA-SHA256, exclusive c14n, SHA-256 digest),
 * referenced by the SAML 1.1 ID attribute (`AssertionID` or `ResponseID`: SAML 1.1 has no `ID`; metadata, a
 * SAML 2.0 document, has `ID`), with our certificate in KeyInfo. Exclusive c14n keeps a signed assertion
 * valid when it is later placed inside a response or a SOAP envelope with other namespaces in scope.
 * `placement`: the assertion schema puts ds:Signature last, the protocol schema first (before Status).
 */
export function signRoot(xml: string, idAttribute: 'AssertionID' | 'ResponseID' | 'ID', key: SamlSigningKey, placement: 'append' | 'prepend'): string {
  const { SignedXml } = xmlCrypto();
  const signer = new SignedXml({
    privateKey: key.privateKeyPem,
    publicCert: key.certificatePem,
    signatureAlgorithm: ALG.rsaSha256,
    canonicalizationAlgorithm: ALG.excC14n,
    idAttribute,
  });
  signer.addReference({ xpath: '/*', transforms: [ALG.enveloped, ALG.excC14n], digestAlgorithm: ALG.sha256 });
  signer.computeSignature(xml, { prefix: 'ds', location: { reference: '/*', action: placement } });
  return signer.getSignedXml();
}

/** A signed assertion inside a signed Browser/POST response. */
export function signAssertion(assertionXml: string, key: SamlSigningKey): string {
  return signRoot(assertionXml, 'AssertionID', key, 'append');
}

export function signResponse(responseXml: string, key: SamlSigningKey): string {
  return signRoot(responseXml, 'ResponseID', key, 'prepend');
}
