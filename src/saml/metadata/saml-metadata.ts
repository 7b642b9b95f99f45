import { BINDING_SOAP, NAMEID_UNSPECIFIED, SAML11_PROTOCOL, SAML_NS, SHIBBOLETH_AUTHN_REQUEST } from '../assertion/saml-names.js';
import { element, textElement } from '../assertion/xml.js';

/** The certificate's base64 body, as ds:X509Certificate carries it. */
export function certificateBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

/**
 * Our metadata in the form Shibboleth-family service providers read for SAML 1.1: SAML 2.0 metadata
 * (they read nothing else) with an IDPSSODescriptor whose protocolSupportEnumeration names SAML 1.1, the
 * Shibboleth AuthnRequest profile endpoint (our front door), and the signing certificate.
 */
export function samlMetadata(input: { entityId: string; certificatePem: string; ssoUrl: string; artifactResolutionUrl?: string }): string {
  const keyDescriptor = element(
    'md:KeyDescriptor',
    { use: 'signing' },
    element('ds:KeyInfo', { 'xmlns:ds': SAML_NS.dsig }, element('ds:X509Data', {}, textElement('ds:X509Certificate', {}, certificateBody(input.certificatePem)))),
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    element(
      'md:EntityDescriptor',
      { 'xmlns:md': SAML_NS.metadata, entityID: input.entityId },
      element(
        'md:IDPSSODescriptor',
        { protocolSupportEnumeration: SAML11_PROTOCOL },
        keyDescriptor,
        ...(input.artifactResolutionUrl
          ? [element('md:ArtifactResolutionService', { Binding: BINDING_SOAP, Location: input.artifactResolutionUrl, index: '1' })]
          : []),
        textElement('md:NameIDFormat', {}, NAMEID_UNSPECIFIED),
        element('md:SingleSignOnService', { Binding: SHIBBOLETH_AUTHN_REQUEST, Location: input.ssoUrl }),
      ),
    )
  );
}
