import { BINDING_SOAP, NAMEID_UNSPECIFIED, SAML11_PROTOCOL, SAML_NS, SHIBBOLETH_AUTHN_REQUEST, SHIBBOLETH_PROTOCOL } from '../assertion/saml-names.js';
import { element, textElement } from '../assertion/xml.js';

/** The certificate's base64 body, as ds:X509Certificate carries it. */
export function certificateBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

export interface SamlMetadataInput {
  entityId: string;
  certificatePem: string;
  ssoUrl: string;
  artifactResolutionUrl?: string;
  /** The root's `ID`, what the enveloped signature references. */
  id?: string;
  /** After this an SP must not use the document (its SignatureMetadataFilter/RequireValidUntil rely on it). */
  validUntil?: Date;
  /** xsd:duration: how long an SP may keep the document before fetching it again. */
  cacheDuration?: string;
}

/**
 * Our metadata in the form Shibboleth-family service providers read for SAML 1.1: SAML 2.0 metadata
 * (they read nothing else) with an IDPSSODescriptor whose protocolSupportEnumeration names SAML 1.1 (what an
 * SP checks the responses' issuer against) and the Shibboleth 1.0 protocol (what a Shibboleth SP needs before
 * it sends a Shib1 AuthnRequest), the Shibboleth AuthnRequest profile endpoint (our front door), the artifact
 * resolution endpoint and the signing certificate.
 */
export function samlMetadata(input: SamlMetadataInput): string {
  const keyDescriptor = element(
    'md:KeyDescriptor',
    { use: 'signing' },
    element(
      'ds:KeyInfo',
      { 'xmlns:ds': SAML_NS.dsig },
      element('ds:X509Data', {}, textElement('ds:X509Certificate', {}, certificateBody(input.certificatePem))),
    ),
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    element(
      'md:EntityDescriptor',
      {
        'xmlns:md': SAML_NS.metadata,
        ID: input.id,
        entityID: input.entityId,
        validUntil: input.validUntil?.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        cacheDuration: input.cacheDuration,
      },
      element(
        'md:IDPSSODescriptor',
        { protocolSupportEnumeration: `${SAML11_PROTOCOL} ${SHIBBOLETH_PROTOCOL}` },
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
