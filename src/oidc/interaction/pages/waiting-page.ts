import { html, SafeHtml } from '../../../common/html/escape.js';
import type { UiLocale } from '../../../i18n/locales.js';
import type { Messages } from '../../../i18n/messages.js';
import { layout } from './layout.js';

export interface WaitingPageModel {
  locale: UiLocale;
  messages: Messages;
  heading: string;
  title: string;
  instructions: string;
  context: string[];
  /** SVG produced by the QR encoder from our own link (no user input reaches it). */
  qrSvg: string;
  link: string;
  statusUrl: string;
  continueAction: string;
  cancelAction: string;
  csrf: string;
}

/**
 * The page shown while the phone does its part. A same-origin script watches the status URL and presses
 * "continue" when the session ends; without scripts the user presses it.
 */
export function waitingPage(m: WaitingPageModel): string {
  return layout(
    m.locale,
    m.heading,
    html`<h1>${m.heading}</h1>
<h2>${m.title}</h2>
${m.context.map((text) => html`<div class="context">${text}</div>`)}
${m.link
  ? html`<p>${m.instructions}</p>
<div class="qr">${new SafeHtml(m.qrSvg)}</div>
<p><a href="${m.link}" data-action="open-app">${m.link}</a></p>`
  : html`<p>${m.messages.continueOnPhone}</p>`}
<form class="choice" method="post" action="${m.continueAction}" data-action="continue" id="continue" data-status-url="${m.statusUrl}">
<input type="hidden" name="_csrf" value="${m.csrf}">
<input type="hidden" name="action" value="continue">
<button type="submit">${m.messages.continue}</button>
</form>
<form class="cancel" method="post" action="${m.cancelAction}" data-action="cancel">
<input type="hidden" name="_csrf" value="${m.csrf}">
<button type="submit">${m.messages.cancel}</button>
</form>
<script src="/its/assets/wait-for-phone.js"></script>`,
  );
}
