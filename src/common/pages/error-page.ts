import { html } from '../html/escape.js';
import type { UiLocale } from '../../i18n/locales.js';
import { ERROR_MESSAGES, errorKind } from '../../i18n/error-messages.js';
import { messagesFor } from '../../i18n/messages.js';
import type { PageLogo } from './page-logo.js';
import { focusedHeading, layout, type PageSite } from './layout.js';

/**
 * The error page a person sees: a sentence in their language for what happened, the code and the request
 * id for support, and the technical description (English, meant for the service's developers) folded away.
 * There is no action to take here, so the focus starts on the heading (read first by a screen reader).
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
<p class="ref">${e.errorCode}: <code data-error="${error}">${error}</code>${requestId ? html`<br>${m.requestId}: <code>${requestId}</code>` : ''}</p>
${description ? html`<details><summary>${e.technicalDetails}</summary><p lang="en">${description}</p></details>` : ''}`,
    { logo },
  );
}
