import { AppError } from '../common/errors/app-error.js';

/** Errors of the SAML front door. The browser ones are rendered as the broker's HTML error page. */
export class SamlError extends AppError {}

export const samlUnknownMerchant = () => new SamlError(400, 'saml_unknown_merchant', 'mid or providerId does not name a merchant registered for SAML sign-on');
export const samlConsumerNotRegistered = () =>
  new SamlError(400, 'saml_consumer_not_registered', 'shire is neither the assertion consumer URL nor the artifact receiver URL registered for the merchant');
export const samlBadRequest = (what: string) => new SamlError(400, 'saml_invalid_request', what);
export const samlTransactionGone = () => new SamlError(400, 'saml_transaction_expired', 'this SAML sign-in has expired or was already answered');

/** Artifact resolution (SOAP back-channel): a request we cannot read is answered as a SOAP 1.1 Client fault. */
export class SamlSoapError extends SamlError {}
export const samlSoapFault = (what: string) => new SamlSoapError(400, 'saml_invalid_soap', what);
export const samlUnsupportedMediaType = () =>
  new SamlError(415, 'unsupported_media_type', 'the artifact resolution request must be a SOAP 1.1 message (text/xml)');
export const samlInvalidClient = () => {
  const error = new SamlError(
    401,
    'saml_invalid_client',
    'merchant authentication failed (HTTP Basic with the client_id and secret of a SAML merchant, or its registered TLS client certificate through the trusted proxy)',
  );
  error.headers = { 'WWW-Authenticate': 'Basic realm="saml-artifact-resolution"' };
  return error;
};
