import { html } from '../../common/html/escape.js';
import { focusedHeading, layout, type PageSite } from '../../common/pages/layout.js';
import { CREDENTIAL_REVOCATION_MESSAGES } from '../../i18n/credential-revocation-messages.js';
import type { UiLocale } from '../../i18n/locales.js';

/** The question, with one CSRF-protected form whose button is the page's one action (focused first). */
export function confirmRevocationPage(site: PageSite, locale: UiLocale, action: string, csrf: string): string {
  const m = CREDENTIAL_REVOCATION_MESSAGES[locale];
  return layout(
    site,
    locale,
    m.title,
    html`<h1>${m.question}</h1>
<p>${m.explanation}</p>
<form method="post" action="${action}" data-action="revoke">
<input type="hidden" name="_csrf" value="${csrf}">
<input type="hidden" name="ui_locale" value="${locale}">
<button type="submit" class="continue" autofocus>${m.confirm}</button>
</form>`,
  );
}

export function revokedPage(site: PageSite, locale: UiLocale): string {
  const m = CREDENTIAL_REVOCATION_MESSAGES[locale];
  return layout(site, locale, m.doneTitle, html`${focusedHeading(m.doneTitle)}<p data-revocation="done">${m.done}</p>`);
}

/** An unknown, expired or used link: one answer for all three (a handle's existence is not told apart). */
export function nothingToRevokePage(site: PageSite, locale: UiLocale): string {
  const m = CREDENTIAL_REVOCATION_MESSAGES[locale];
  return layout(site, locale, m.unknownTitle, html`${focusedHeading(m.unknownTitle)}<p data-revocation="unknown">${m.unknown}</p>`);
}

export function formRejectedPage(site: PageSite, locale: UiLocale): string {
  const m = CREDENTIAL_REVOCATION_MESSAGES[locale];
  return layout(site, locale, m.title, html`${focusedHeading(m.title)}<p data-error="csrf_rejected">${m.formRejected}</p>`);
}
