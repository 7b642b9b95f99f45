import { AppError } from '../common/errors/app-error.js';

/** Errors of the SAML front door. The browser ones are rendered as the broker's HTML error page. */
export class SamlError extends AppError {}

export const samlUnknownMerchant = () =>
  new SamlError(400, 'saml_unknown_merchant', 'mid does not name a merchant registered for SAML sign-on');
export const samlNoPostEndpoint = () =>
  new SamlError(400, 'saml_binding_not_registered', 'the merchant has no assertion consumer URL registered (Browser/POST)');
export const samlConsumerNotRegistered = () =>
  new SamlError(400, 'saml_consumer_not_registered', 'the assertion consumer URL (shire) is not the one registered for the merchant');
export const samlBadRequest = (what: string) => new SamlError(400, 'saml_invalid_request', what);
export const samlTransactionGone = () =>
  new SamlError(400, 'saml_transaction_expired', 'this SAML sign-in has expired or was already answered');
