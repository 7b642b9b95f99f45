/** Namespaces and fixed URIs of SAML 1.1 (OASIS cs-sstc-*-1.1) and the Shibboleth 1.x profile. */
export const SAML_NS = {
  assertion: 'urn:oasis:names:tc:SAML:1.0:assertion',
  protocol: 'urn:oasis:names:tc:SAML:1.0:protocol',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
  soap: 'http://schemas.xmlsoap.org/soap/envelope/',
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
} as const;

/** The attribute namespace SAML 1.1 service providers of the Shibboleth family expect (issue 12, point 3). */
export const SHIBBOLETH_ATTRIBUTE_NAMESPACE = 'urn:mace:shibboleth:1.0:attributeNamespace:uri';
export const NAMEID_UNSPECIFIED = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';
export const CONFIRMATION_BEARER = 'urn:oasis:names:tc:SAML:1.0:cm:bearer';
export const CONFIRMATION_ARTIFACT = 'urn:oasis:names:tc:SAML:1.0:cm:artifact';
export const AUTH_METHOD_HARDWARE_TOKEN = 'urn:oasis:names:tc:SAML:1.0:am:HardwareToken';
export const AUTH_METHOD_UNSPECIFIED = 'urn:oasis:names:tc:SAML:1.0:am:unspecified';
export const SAML11_PROTOCOL = 'urn:oasis:names:tc:SAML:1.1:protocol';
export const BINDING_SOAP = 'urn:oasis:names:tc:SAML:1.0:bindings:SOAP-binding';
export const SHIBBOLETH_AUTHN_REQUEST = 'urn:mace:shibboleth:1.0:profiles:AuthnRequest';
/**
 * The protocol a Shibboleth SP looks for in an IdP role before it sends a Shib1 AuthnRequest to it
 * (Shib1SessionInitiator: "unable to locate Shibboleth-aware identity provider role" without it).
 */
export const SHIBBOLETH_PROTOCOL = 'urn:mace:shibboleth:1.0';

export const ALG = {
  rsaSha256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  sha256: 'http://www.w3.org/2001/04/xmlenc#sha256',
  excC14n: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  enveloped: 'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
} as const;
