import { html, type SafeHtml } from '../../../common/html/escape.js';
import type { UiLocale } from '../../../i18n/locales.js';
import type { Messages } from '../../../i18n/messages.js';
import type { PageLogo } from '../../../common/pages/page-logo.js';
import { layout, type PageSite } from '../../../common/pages/layout.js';
import { wayBackLink, type WayBack } from './way-back.js';

export interface ChoiceForm {
  action: string;
  label: string;
  detail?: string;
  fields: Record<string, string>;
  data: Record<string, string>;
}

export interface ChoicesPageModel {
  site: PageSite;
  locale: UiLocale;
  messages: Messages;
  heading: string;
  subheading?: string;
  intro?: string;
  /** Text the merchant sent to be shown to the user (binding message, transaction text, svc_context): shown as text. */
  context: string[];
  csrf: string;
  choices: ChoiceForm[];
  cancelAction: string;
  /** A scheme's own choice page, while the merchant allows another scheme: the way back to the choice of schemes. */
  back?: WayBack;
  emptyText?: string;
  logo?: PageLogo;
}

const dataAttributes = (data: Record<string, string>): SafeHtml[] =>
  Object.entries(data)
    .filter(([name]) => /^[a-z][a-z0-9-]*$/.test(name))
    .map(([name, value]) => html` data-${name}="${value}"`);

/**
 * One page shape serves the broker page and a scheme's own choice pages: a list of one-button forms. Focus
 * starts on the first choice, the page's main action (a keyboard user presses Enter or moves on with Tab).
 */
export function choicesPage(model: ChoicesPageModel): string {
  const m = model.messages;
  return layout(
    model.site,
    model.locale,
    model.heading,
    html`<h1>${model.heading}</h1>
${model.subheading ? html`<h2>${model.subheading}</h2>` : ''}
${model.context.map((text) => html`<div class="context">${text}</div>`)}
${model.intro ? html`<p>${model.intro}</p>` : ''}
${model.choices.length === 0 ? html`<p>${model.emptyText ?? m.noMethods}</p>` : ''}
${model.choices.map(
  (c, i) => html`<form class="choice" method="post" action="${c.action}"${dataAttributes(c.data)}>
<input type="hidden" name="_csrf" value="${model.csrf}">
${Object.entries(c.fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<button type="submit"${dataAttributes(c.data)}${i === 0 ? html` autofocus` : ''}>${c.label}${c.detail ? html`<span class="detail">${c.detail}</span>` : ''}</button>
</form>`,
)}
${wayBackLink(model.back)}
<form class="cancel" method="post" action="${model.cancelAction}" data-action="cancel">
<input type="hidden" name="_csrf" value="${model.csrf}">
<button type="submit">${m.cancel}</button>
</form>`,
    { logo: model.logo },
  );
}
