import { html } from '../common/html/escape.js';
import { focusedHeading, layout, type PageSite } from '../common/pages/layout.js';
import { LANDING_MESSAGES } from '../i18n/landing-messages.js';
import type { UiLocale } from '../i18n/locales.js';

/** Where a developer goes from the base URL (the same paths the start banner prints). */
export interface LandingLinks {
  documentation: string;
  discovery: string;
  adminApi: string;
}

/**
 * GET / for a browser: a person who lands on the base URL learns what the service is and that nothing is to be done
 * here (they come from a merchant's sign-in); a developer gets the three places to start.
 */
export function landingPage(site: PageSite, locale: UiLocale, links: LandingLinks): string {
  const m = LANDING_MESSAGES[locale];
  return layout(
    site,
    locale,
    m.title,
    html`${focusedHeading(m.title)}<p>${m.intro}</p>
<h2>${m.forDevelopers}</h2>
<ul class="developer-links">
<li><a href="${links.documentation}" data-link="documentation">${m.startHere}</a></li>
<li><a href="${links.discovery}" data-link="discovery">${m.discovery}</a></li>
<li><a href="${links.adminApi}" data-link="admin-api">${m.adminApi}</a></li>
</ul>`,
  );
}
