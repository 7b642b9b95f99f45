import { html, SafeHtml } from '../../../common/html/escape.js';
import type { HandoffApp, ProgressStep, WaitingNotice, WaitingStep } from '../../spi/eid-provider.js';
import type { UiLocale } from '../../../i18n/locales.js';
import type { Messages } from '../../../i18n/messages.js';
import { WAITING_MESSAGES, type WaitingMessages, type WaitingTexts } from '../../../i18n/waiting-messages.js';
import type { PageLogo } from '../../../common/pages/page-logo.js';
import { layout, type PageSite } from '../../../common/pages/layout.js';
import { wayBackLink, type WayBack } from './way-back.js';

export interface WaitingPageModel {
  site: PageSite;
  locale: UiLocale;
  messages: Messages;
  heading: string;
  title: string;
  context: string[];
  /** SVG produced by the QR encoder from our own link (no user input reaches it). */
  qrSvg: string;
  link: string;
  statusUrl: string;
  progress: ProgressStep;
  /** A scheme's own hand-off texts (a wallet's); default the ID app's. */
  texts?: WaitingTexts;
  /** The scheme's steps before `done`, in order, named. */
  steps: WaitingStep[];
  alternate?: { label: string; href: string };
  /** The app the default texts name (`{app}`) and its store pages; absent for a scheme with its own texts. */
  app?: HandoffApp;
  /** The link to copy for another device (default `link`). */
  copyLink?: string;
  /** The hand-off stays after a device connected (the script hides it otherwise). */
  keepHandoff?: boolean;
  notice?: WaitingNotice;
  /** Where the no-script refresh goes: this page, answered as a press of Continue would be (by GET). */
  refreshUrl: string;
  continueAction: string;
  cancelAction: string;
  /** While the merchant allows another scheme: the way back to the choice of schemes. */
  back?: WayBack;
  csrf: string;
  logo?: PageLogo;
}

/** Seconds between the no-script page's refreshes: the phone's steps take several seconds each. */
const REFRESH_SECONDS = 5;
export const WAITING_SCRIPT = '/its/assets/wait-for-phone.js';

/**
 * The page shown while the phone does its part. On a phone the main action is the button that opens the
 * ID app on the same device; on a desktop the QR code (the link stays copyable, folded away). The steps
 * follow the status route: a same-origin script updates them and presses Continue when the session ends;
 * without scripts the page refreshes itself (a meta refresh inside noscript, so scripted pages never reload).
 * Focus: both the app button and Continue carry autofocus; the browser focuses the first one it can, so a
 * phone (the app button shown) starts on the app button and a desktop (the button hidden) on Continue.
 */
export function waitingPage(m: WaitingPageModel): string {
  const w = withAppName({ ...WAITING_MESSAGES[m.locale], ...m.texts }, m.app);
  // The order the script follows too (it reads it from the list): waiting, the scheme's steps, done; stopped is none.
  const shown: WaitingStep[] = [...m.steps, { id: 'done', label: w.done }];
  const order: ProgressStep[] = ['waiting', ...shown.map((step) => step.id)];
  const reached = order.indexOf(m.progress);
  // Nothing is current before the other device has done anything: the first step is pending, not under way.
  const next = reached > 0 ? shown.find((step) => order.indexOf(step.id) > reached) : undefined;
  const steps = shown.map((step) => {
    const done = order.indexOf(step.id) <= reached;
    const current = step === next;
    // A step news on another device only (the ID app opening the session): on the phone itself the person opened it.
    const classes = [done ? 'done' : '', m.app && step.onDesktopOnly ? 'on-desktop' : ''].filter(Boolean).join(' ');
    return html`<li data-for="${step.id}"${classes ? html` class="${classes}"` : ''}${current ? html` aria-current="step"` : ''}>${step.label} <span class="state">${w.completed}</span></li>`;
  });
  return layout(
    m.site,
    m.locale,
    m.heading,
    html`<h1>${m.heading}</h1>
<h2>${m.title}</h2>
${m.context.map((text) => html`<div class="context">${text}</div>`)}
${
  m.link
    ? html`<div id="handoff"${m.keepHandoff ? html` data-keep="1"` : ''}>
<div class="on-phone"><p>${w.phoneInstruction}</p></div>
<a href="${m.link}" data-action="open-app" autofocus>${w.openApp}</a>
${m.alternate ? html`<p class="on-phone hint"><a href="${m.alternate.href}" data-action="open-app-alternate">${m.alternate.label}</a></p>` : ''}
<div class="on-desktop"><p>${w.qrInstruction}</p>
<div class="qr" role="img" aria-label="${w.qrLabel}">${new SafeHtml(m.qrSvg)}</div></div>
${m.app ? noAppHelp(w, m.app) : ''}
<details><summary>${w.copyLink}</summary>
<label for="app-link" class="hint">${w.linkLabel}</label>
<input id="app-link" class="link" type="text" readonly value="${m.copyLink ?? m.link}">
</details>
</div>`
    : html`<p>${m.messages.continueOnPhone}</p>`
}
<h3 id="progress-title">${w.progressTitle}</h3>
<ol class="progress" id="progress" data-step="${m.progress}" aria-labelledby="progress-title" aria-live="polite">
${steps}
</ol>
${m.progress === 'stopped' ? html`<p>${w.stopped}</p>` : ''}
${m.notice ? noticeForms(m.notice, m.continueAction, m.csrf) : ''}
<form class="choice" method="post" action="${m.continueAction}" data-action="continue" id="continue" data-status-url="${m.statusUrl}" data-notice="${m.notice?.key ?? ''}">
<input type="hidden" name="_csrf" value="${m.csrf}">
<input type="hidden" name="action" value="continue">
<button type="submit" aria-describedby="continue-hint" autofocus>${m.messages.continue}</button>
<span class="hint" id="continue-hint">${w.continueHint}</span>
</form>
${wayBackLink(m.back)}
<form class="cancel" method="post" action="${m.cancelAction}" data-action="cancel">
<input type="hidden" name="_csrf" value="${m.csrf}">
<button type="submit">${m.messages.cancel}</button>
</form>`,
    {
      head: html`<noscript><meta http-equiv="refresh" content="${REFRESH_SECONDS};url=${m.refreshUrl}"></noscript>`,
      scripts: [WAITING_SCRIPT],
      logo: m.logo,
    },
  );
}

/** The notice (read out by screen readers as it appears) and its way to start over, posted to the scheme. */
function noticeForms(notice: WaitingNotice, action: string, csrf: string): SafeHtml {
  return html`<div class="notice" role="alert" id="notice">${notice.text}</div>
<form class="choice" method="post" action="${action}" data-action="retry">
<input type="hidden" name="_csrf" value="${csrf}">
<input type="hidden" name="action" value="retry">
<button type="submit">${notice.retry}</button>
</form>`;
}

/** The default texts name the app by its configured product name. */
function withAppName(texts: WaitingMessages, app: HandoffApp | undefined): WaitingMessages {
  const name = app?.name ?? '';
  return Object.fromEntries(Object.entries(texts).map(([key, text]) => [key, text.replaceAll('{app}', name)])) as unknown as WaitingMessages;
}

/** Folded (no script needed): what a person without the app does, with the store pages the operator configured. */
function noAppHelp(w: WaitingMessages, app: HandoffApp): SafeHtml {
  return html`<details class="no-app"><summary data-action="no-app">${w.noApp}</summary>
<p>${w.noAppHelp}</p>
${app.storeLinks.length ? html`<ul class="stores">${app.storeLinks.map((l) => html`<li><a href="${l.href}" rel="noopener" data-store="${l.store}">${l.store}</a></li>`)}</ul>` : ''}
</details>`;
}
