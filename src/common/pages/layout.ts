import { html, SafeHtml } from '../html/escape.js';
import { htmlLang, type UiLocale } from '../../i18n/locales.js';
import { messagesFor } from '../../i18n/messages.js';
import type { PageLogo } from './page-logo.js';
import { DEFAULT_OPERATOR_NAME } from '../../config/app-config.js';
import type { Branding } from '../../config/branding-config.js';

// Colours reach WCAG AA on white: text #1d2330 (15:1), secondary #4f5869 (7:1), links and focus #2848b8 (7:1).
// The accent (links, buttons, focus) is the operator's when configured, checked for AA at start (branding-config.ts).
const DEFAULT_ACCENT = '#2848b8';
const styleWith = (accent: string): string => `
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f4f5f7;color:#1d2330;line-height:1.45}
main{max-width:32rem;margin:3rem auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 1px 4px rgba(0,0,0,.08)}
@media (max-width:34rem){main{margin:1rem;padding:1.25rem}}
h1{font-size:1.4rem;margin-top:0}
h2{font-size:1.1rem}
form.choice{margin:.6rem 0}
form.choice button,a.button{display:block;box-sizing:border-box;width:100%;text-align:left;padding:.9rem 1rem;border:1px solid #8f97a8;border-radius:8px;background:#fff;color:#1d2330;font:inherit;cursor:pointer;text-decoration:none}
form.choice button:hover{border-color:${accent}}
button.continue{display:block;width:100%;padding:.9rem 1rem;border:none;border-radius:8px;background:${accent};color:#fff;font:inherit;font-weight:600;cursor:pointer}
#handoff>a,#offer>a{display:none;text-align:center;padding:.9rem 1rem;border-radius:8px;background:${accent};color:#fff;font-weight:600;text-decoration:none;word-break:normal}
:focus-visible{outline:3px solid ${accent};outline-offset:2px}
h1[tabindex="-1"]:focus{outline:none}
.detail,.hint{display:block;color:#4f5869;font-size:.9rem;margin-top:.2rem}
.notice{background:#fff4e5;border-left:4px solid #b25e00;border-radius:8px;padding:.8rem 1rem;margin:1rem 0;color:#1d2330}
.context{background:#eef2ff;border-radius:8px;padding:.8rem 1rem;margin-bottom:1rem;white-space:pre-wrap;word-break:break-word}
.cancel button{background:none;border:none;color:${accent};text-decoration:underline;cursor:pointer;padding:0;margin-top:1rem;font:inherit}
.ref{color:#4f5869;font-size:.85rem}
.way-back{margin:1.5rem 0 0}
.way-back a{word-break:normal}
a{color:${accent};overflow-wrap:anywhere}
.qr svg{display:block;max-width:100%;height:auto}
.on-phone{display:none}
@media (hover:none) and (pointer:coarse),(max-width:34rem){.on-phone,#handoff>a,#offer>a{display:block}.on-desktop{display:none}}
.tx-code{font-size:1.6rem;letter-spacing:.2em;font-weight:600;font-variant-numeric:tabular-nums;margin:.2rem 0}
.progress{padding-left:1.4rem}
.progress li{color:#4f5869}
.progress li.done{color:#1d2330}
.progress li.done::marker{content:"✓  "}
.progress li[aria-current]{font-weight:600;color:#1d2330}
.progress li:not(.done) .state{display:none}
.progress .state{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
details.no-app{margin:1rem 0}
details.no-app summary,#handoff details summary{cursor:pointer;color:${accent}}
.stores{padding-left:1.2rem}
input.link{width:100%;box-sizing:border-box;font:inherit;font-size:.85rem;padding:.4rem;border:1px solid #8f97a8;border-radius:4px}
footer{max-width:32rem;margin:0 auto 2rem;padding:0 1rem;font-size:.85rem;color:#4f5869;display:flex;flex-wrap:wrap;gap:.3rem 1rem}
footer a{word-break:normal}
header.operator{max-width:32rem;margin:1.5rem auto -1.5rem;padding:0 1rem}
@media (max-width:34rem){header.operator{margin:1rem 1rem -.5rem;padding:0}}
.operator-logo{display:block;max-height:2rem;max-width:10rem}
.merchant-logo{display:block;max-height:3rem;max-width:12rem;margin-bottom:1rem}
.developer-links a{word-break:normal;overflow-wrap:break-word}
label.field{display:block;margin:1rem 0;font-weight:600}
label.field .hint{font-weight:400}
label.field input,label.field select{display:block;width:100%;box-sizing:border-box;margin-top:.35rem;padding:.6rem .7rem;border:1px solid #8f97a8;border-radius:8px;background:#fff;color:#1d2330;font:inherit;font-weight:400}
button.secondary{display:block;width:100%;margin-top:.6rem;padding:.9rem 1rem;border:1px solid #8f97a8;border-radius:8px;background:#fff;color:#1d2330;font:inherit;cursor:pointer}
button.secondary:hover{border-color:${accent}}
form.request{border-top:1px solid #dde1e8;margin-top:1.5rem;padding-top:.5rem}
.developer-links li{margin:.3rem 0}
`;

/** What every page of this service shows whatever its model, from the configuration (PRIVACY_NOTICE_URL, OPERATOR_*). */
export interface PageSite {
  privacyNoticeUrl?: string;
  operatorName?: string;
  /** The operator's logo (served by us at OPERATOR_LOGO_PATH), above the card; the merchant's stays inside it. */
  operatorLogo?: PageLogo;
  contactUrl?: string;
  /** The page's stylesheet, with the operator's accent colour (built once per configuration, not per page). */
  style: string;
}

/** The service's icon (an SVG of our own), linked from every page; `/favicon.ico` answers it too, for pages that link none. */
export const FAVICON_PATH = '/its/assets/favicon.svg';

/** The head lines every HTML page of ours starts with: encoding, a viewport for phones, its title and our icon. */
export function documentHead(title: string): SafeHtml {
  return html`<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">`;
}

/** Where the pages load the operator's logo from: its hash in the address, so a new logo is a new address. */
export const operatorLogoPath = (sha256: string): string => `/its/assets/operator-logo/${sha256.slice(0, 16)}`;

export function pageSiteOf(config: { privacyNoticeUrl?: string; branding?: Branding }): PageSite {
  const b = config.branding ?? {};
  return {
    privacyNoticeUrl: config.privacyNoticeUrl,
    operatorName: b.operatorName,
    operatorLogo: b.logo ? { src: operatorLogoPath(b.logo.sha256), alt: b.operatorName ?? DEFAULT_OPERATOR_NAME } : undefined,
    contactUrl: b.contactUrl,
    style: styleWith(b.accentColour ?? DEFAULT_ACCENT),
  };
}

export interface LayoutExtras {
  /** Extra head elements (the waiting page's no-script refresh). */
  head?: SafeHtml;
  /** Same-origin script files (CSP script-src 'self': never inline). */
  scripts?: string[];
  /** The merchant's logo (served by us), shown above the heading that names the merchant. */
  logo?: PageLogo;
}

/**
 * The heading of a page without an action (an error, a finished logout): it takes the focus (autofocus,
 * no script) so a screen reader starts with what happened; a heading is not a control, so no focus ring.
 */
export function focusedHeading(text: string): SafeHtml {
  return html`<h1 tabindex="-1" autofocus>${text}</h1>`;
}

/** The one page frame of the broker's HTML: styles inline (CSP allows inline styles), scripts only as same-origin files. */
export function layout(site: PageSite, locale: UiLocale, title: string, body: SafeHtml, extras: LayoutExtras = {}): string {
  return html`<!DOCTYPE html>
<html lang="${htmlLang(locale)}">
<head>
${documentHead(title)}
<meta name="referrer" content="no-referrer">
${extras.head ?? ''}
<style>${new SafeHtml(site.style)}</style>
</head>
<body>${site.operatorLogo ? html`<header class="operator"><img class="operator-logo" src="${site.operatorLogo.src}" alt="${site.operatorLogo.alt}"></header>` : ''}<main>${extras.logo ? html`<img class="merchant-logo" src="${extras.logo.src}" alt="${extras.logo.alt}">` : ''}${body}</main>
${footer(site, locale)}
${(extras.scripts ?? []).map((src) => html`<script src="${src}"></script>`)}
</body>
</html>`.html;
}

/** The operator's name, contact and privacy notice, when configured; no footer when none is. */
function footer(site: PageSite, locale: UiLocale): SafeHtml | '' {
  if (!site.operatorName && !site.contactUrl && !site.privacyNoticeUrl) return '';
  const m = messagesFor(locale);
  return html`<footer>${site.operatorName ? html`<span data-operator>${site.operatorName}</span>` : ''}${site.contactUrl ? html`<a href="${site.contactUrl}" data-action="contact">${m.contact}</a>` : ''}${site.privacyNoticeUrl ? html`<a href="${site.privacyNoticeUrl}" data-action="privacy-notice">${m.privacyNotice}</a>` : ''}</footer>`;
}
