import { html } from '../../common/html/escape.js';
import { DEFAULT_LOCALE } from '../../i18n/locales.js';
import { layout } from '../../oidc/interaction/pages/layout.js';
import type { PendingRequestDto } from '../app-api/dto/ciba-app.dto.js';

export interface TestPageModel {
  appId?: string;
  requests: PendingRequestDto[];
  persons: { id: string; label: string }[];
  csrf: string;
  notice?: string;
}

/**
 * customer-test: the CIBA test page (no scripts; everything the merchant sent is shown as text). One form per
 * open request: a specimen holder approves it, or it is declined.
 */
export function testPage(model: TestPageModel): string {
  return layout(
    DEFAULT_LOCALE,
    'CIBA test approval',
    html`<h1>CIBA test approval</h1>
<p>customer-test only: answer a backchannel request as the app would, with a specimen identity of the test eID.</p>
${model.notice ? html`<div class="context">${model.notice}</div>` : ''}
<form method="get" action="/ciba/test">
<label>App id (the merchant's login_hint) <input name="app_id" value="${model.appId ?? ''}" required maxlength="200"></label>
<button type="submit">Show open requests</button>
</form>
${model.appId && model.requests.length === 0 ? html`<p>No open request for this app id (apps bound with an app secret answer in the app only).</p>` : ''}
${model.requests.map(
  (r) => html`<form class="choice" method="post" action="/ciba/test/requests/${r.id}" data-request="${r.id}">
<input type="hidden" name="_csrf" value="${model.csrf}">
<input type="hidden" name="app_id" value="${model.appId ?? ''}">
<h2>${r.merchant_name}: ${r.kind}</h2>
${r.binding_message ? html`<div class="context">${r.binding_message}</div>` : ''}
${r.transaction_text ? html`<div class="context">${r.transaction_text.content}</div>` : ''}
<label>Specimen holder <select name="person">${model.persons.map((p) => html`<option value="${p.id}">${p.label}</option>`)}</select></label>
<button type="submit" name="action" value="approve">Approve</button>
<button type="submit" name="action" value="decline">Decline</button>
</form>`,
)}`,
  );
}
