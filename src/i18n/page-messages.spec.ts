import { expectEveryLocale } from '../../test/support/every-locale.js';
import { CREDENTIAL_REVOCATION_MESSAGES } from './credential-revocation-messages.js';
import { ERROR_MESSAGES } from './error-messages.js';
import { LANDING_MESSAGES } from './landing-messages.js';
import { SAML_POST_MESSAGES } from './saml-post-messages.js';
import { WAITING_MESSAGES } from './waiting-messages.js';

/** Every broker page string exists in every locale and is translated (the schemes' own texts: beside them). */
describe('broker page texts', () => {
  it.each([
    ['error sentences', ERROR_MESSAGES],
    ['verifier waiting page', WAITING_MESSAGES],
    ['SAML post page', SAML_POST_MESSAGES],
    ['credential revocation pages', CREDENTIAL_REVOCATION_MESSAGES],
    ['the base URL page', LANDING_MESSAGES],
  ] as unknown as [string, Record<string, Record<string, string>>][])('%s', (_name, table) => expectEveryLocale(table));
});
