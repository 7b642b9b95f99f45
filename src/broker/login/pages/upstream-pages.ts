import { html } from '../../../common/html/escape.js';
import type { UiLocale } from '../../../i18n/locales.js';
import { UPSTREAM_MESSAGES } from '../../../i18n/upstream-messages.js';
import type { PageLogo } from '../../../common/pages/page-logo.js';
import { focusedHeading, layout, type PageSite } from '../../../common/pages/layout.js';

/**
 * Back from an upstream eID without an identity: the user is told why on our page, in their language,
 * and goes on to the merchant (which then receives the error) by a plain link: no script, no form.
 */
export function upstreamFailurePage(
  site: PageSite,
  locale: UiLocale,
  reason: 'cancelled' | 'upstream_error',
  merchant: string,
  returnTo: string,
  logo?: PageLogo,
): string {
  const m = UPSTREAM_MESSAGES[locale];
  return layout(
    site,
    locale,
    m.title,
    html`<h1>${m.title}</h1>
<p>${reason === 'cancelled' ? m.cancelled : m.failed}</p>
<p><a href="${returnTo}" data-action="return" autofocus>${m.back.replace('{merchant}', merchant)}</a></p>`,
    { logo },
  );
}

/** A callback that matches no sign-in in progress: nothing to resume, nobody to tell but the user. */
export function stateRefusedPage(site: PageSite, locale: UiLocale, code: string, requestId?: string): string {
  const m = UPSTREAM_MESSAGES[locale];
  return layout(
    site,
    locale,
    m.title,
    html`${focusedHeading(m.title)}
<p>${m.stateRefused}</p>
<p><code>${code}</code></p>
${requestId ? html`<p class="ref">${requestId}</p>` : ''}`,
  );
}
