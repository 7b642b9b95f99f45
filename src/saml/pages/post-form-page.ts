import { html } from '../../common/html/escape.js';
import type { UiLocale } from '../../i18n/locales.js';
import { messagesFor } from '../../i18n/messages.js';
import { layout } from '../../oidc/interaction/pages/layout.js';

export const AUTO_POST_SCRIPT_PATH = '/saml/assets/auto-post.js';

/**
 * The end of a Browser/POST sign-in: a form posting SAMLResponse and TARGET to the merchant's consumer URL.
 * A same-origin script submits it (our CSP allows no inline script); without scripts the user presses the
 * button. Every value is escaped by the html template.
 */
export function postFormPage(locale: UiLocale, input: { action: string; samlResponse: string; target: string | null }): string {
  const m = messagesFor(locale);
  return layout(
    locale,
    m.continue,
    html`<form method="post" action="${input.action}" data-saml-post="auto">
<input type="hidden" name="SAMLResponse" value="${input.samlResponse}">
${input.target !== null ? html`<input type="hidden" name="TARGET" value="${input.target}">` : ''}
<button type="submit" class="continue">${m.continue}</button>
</form>
<script src="${AUTO_POST_SCRIPT_PATH}"></script>`,
  );
}

/** Served as a file: submits the page's SAML form once the page is parsed. */
export const AUTO_POST_JS = `'use strict';
(function () {
  var form = document.querySelector('form[data-saml-post="auto"]');
  if (form) form.submit();
})();
`;
