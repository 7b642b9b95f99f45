import { html, type SafeHtml } from '../html/escape.js';
import type { UiLocale } from '../../i18n/locales.js';
import { ERROR_MESSAGES, errorKind } from '../../i18n/error-messages.js';
import { messagesFor } from '../../i18n/messages.js';
import type { PageLogo } from './page-logo.js';
import { focusedHeading, layout, type PageSite } from './layout.js';

/**
 * Where the person can go from here when the service they came from is unknown or out of reach (an unknown client_id
 * names none): the operator's contact when configured, else the base URL's page, which says what this service is.
 */
function wayOut(site: PageSite, e: (typeof ERROR_MESSAGES)[UiLocale]): SafeHtml {
  return site.contactUrl
    ? html`<p class="way-back"><a href="${site.contactUrl}" data-action="get-help">${e.getHelp}</a></p>`
    : html`<p class="way-back"><a href="/" data-action="about-service">${e.aboutService}</a></p>`;
}

/**
 * The error page a person sees: a sentence in their language for what happened, the code and the request
 * id for support, and the technical description (English, meant for the service's developers) folded away.
 * There is no action to take here, so the focus starts on the heading (read first by a screen reader); a link below
 * the sentence is the way out (wayOut).
 */
export function errorPage(site: PageSite, locale: UiLocale, error: string, description: string | undefined, requestId?: string, logo?: PageLogo): string {
  const m = messagesFor(locale);
  const e = ERROR_MESSAGES[locale];
  return layout(
    site,
    locale,
    m.errorTitle,
    html`${focusedHeading(m.errorTitle)}
<p data-error-kind="${errorKind(error)}">${e[errorKind(error)]} ${m.backToService}</p>
${wayOut(site, e)}
<p class="ref">${e.errorCode}: <code data-error="${error}">${error}</code>${requestId ? html`<br>${m.requestId}: <code>${requestId}</code>` : ''}</p>
${description ? html`<details><summary>${e.technicalDetails}</summary><p lang="en">${description}</p></details>` : ''}`,
    { logo },
  );
}
