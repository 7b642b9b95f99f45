import { html, type SafeHtml } from '../../../common/html/escape.js';

/** The link from a scheme's page back to the choice of schemes. */
export interface WayBack {
  href: string;
  label: string;
}

/**
 * A link (a GET: it changes nothing, so it needs no CSRF token and the browser's Back does the same), placed
 * above Cancel: Cancel ends the sign-in at the merchant, this only returns to the choice.
 */
export function wayBackLink(back: WayBack | undefined): SafeHtml | '' {
  return back ? html`<p class="way-back"><a href="${back.href}" data-action="choose-another">${back.label}</a></p>` : '';
}
