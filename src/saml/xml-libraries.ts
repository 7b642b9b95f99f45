import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * xml-crypto and xmldom (with xpath) are about 0.7 MB of code that only SAML uses: loaded with the first SAML
 * message an instance handles, not at every start-up. Both are CommonJS, so they load synchronously here.
 */
export const xmlCrypto = () => require('xml-crypto') as typeof import('xml-crypto');
export const xmldom = () => require('@xmldom/xmldom') as typeof import('@xmldom/xmldom');
