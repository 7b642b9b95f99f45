import { html } from '../../common/html/escape.js';
import type { UiLocale } from '../../i18n/locales.js';
import { SAML_POST_MESSAGES } from '../../i18n/saml-post-messages.js';
import type { PageLogo } from '../../common/pages/page-logo.js';
import { layout, type PageSite } from '../../common/pages/layout.js';

export const AUTO_POST_SCRIPT_PATH = '/saml/assets/auto-post.js';

export interface PostFormInput {
  action: string;
  samlResponse: string;
  target: string | null;
  /** The merchant's name as the user knows it from the broker pages. */
  merchantName: string;
  logo?: PageLogo;
}

/**
 * The end of a Browser/POST sign-in: a form posting SAMLResponse and TARGET to the merchant's consumer URL,
 * in the user's language like every broker page. A same-origin script submits it (our CSP allows no inline
 * script); without scripts the user reads why and presses the button, which has the focus. Every value is
 * escaped by the html template.
 */
export function postFormPage(site: PageSite, locale: UiLocale, input: PostFormInput): string {
  const m = SAML_POST_MESSAGES[locale];
  const fill = (text: string) => text.replace('{merchant}', input.merchantName);
  return layout(
    site,
    locale,
    fill(m.heading),
    html`<h1>${fill(m.heading)}</h1>
<noscript><p>${fill(m.noScript)}</p></noscript>
<form method="post" action="${input.action}" data-saml-post="auto">
<input type="hidden" name="SAMLResponse" value="${input.samlResponse}">
${input.target !== null ? html`<input type="hidden" name="TARGET" value="${input.target}">` : ''}
<button type="submit" class="continue" autofocus>${fill(m.button)}</button>
</form>`,
    { scripts: [AUTO_POST_SCRIPT_PATH], logo: input.logo },
  );
}

/** Served as a file: submits the page's SAML form once the page is parsed. */
export const AUTO_POST_JS = `'use strict';
(function () {
  var form = document.querySelector('form[data-saml-post="auto"]');
  if (form) form.submit();
})();
`;
