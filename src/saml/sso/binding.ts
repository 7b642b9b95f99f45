import type { MerchantSamlSettings } from '../../merchants/saml-settings.js';
import { samlConsumerNotRegistered } from '../saml.errors.js';
import type { SamlBinding } from './saml-transactions.service.js';

/** The registered endpoint of a binding, if any. */
export function endpointOf(saml: MerchantSamlSettings, binding: SamlBinding): string | null {
  return binding === 'post' ? saml.assertion_consumer_url : saml.artifact_receiver_url;
}

/**
 * How a merchant picks Browser/POST or Browser/Artifact: as Shibboleth 1.x does, by the endpoint it names in
 * `shire` (each registered endpoint belongs to one binding: the assertion consumer URL to POST, the artifact
 * receiver URL to Artifact). Without `shire`, the one registered; with both registered, POST (the Shibboleth
 * default, and it needs no back-channel). A `shire` that is neither is refused: answers go to registered URLs only.
 */
export function chooseBinding(saml: MerchantSamlSettings, shire: string | undefined): { binding: SamlBinding; url: string } {
  if (shire !== undefined) {
    if (shire === saml.assertion_consumer_url) return { binding: 'post', url: shire };
    if (shire === saml.artifact_receiver_url) return { binding: 'artifact', url: shire };
    throw samlConsumerNotRegistered();
  }
  if (saml.assertion_consumer_url) return { binding: 'post', url: saml.assertion_consumer_url };
  if (saml.artifact_receiver_url) return { binding: 'artifact', url: saml.artifact_receiver_url };
  // The settings rules make a merchant register one of them; a row that holds neither gets nothing.
  throw samlConsumerNotRegistered();
}
