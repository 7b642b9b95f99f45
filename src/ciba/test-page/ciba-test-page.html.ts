import { html } from '../../common/html/escape.js';
import { DEFAULT_LOCALE } from '../../i18n/locales.js';
import { layout, type PageSite } from '../../common/pages/layout.js';
import type { PendingRequestDto } from '../app-api/dto/ciba-app.dto.js';

export interface TestPageModel {
  site: PageSite;
  appId?: string;
  /** As typed; kept in the answer forms (never in a URL). */
  provisioningCode?: string;
  requests: PendingRequestDto[];
  persons: { id: string; label: string }[];
  csrf: string;
  notice?: string;
}

/**
 * customer-test: the CIBA test page (no scripts; everything the merchant sent is shown as text), styled as the other
 * pages. One form per open request: a specimen holder approves it (the filled, primary button), or it is declined
 * (the outlined one beside it: the two never look alike).
 */
export function testPage(model: TestPageModel): string {
  return layout(
    model.site,
    DEFAULT_LOCALE,
    'CIBA test approval',
    html`<h1>CIBA test approval</h1>
<p>customer-test only: answer a backchannel request as the app would, with a specimen identity of the test eID.</p>
${model.notice ? html`<div class="context" role="status">${model.notice}</div>` : ''}
<form method="post" action="/ciba/test">
<input type="hidden" name="_csrf" value="${model.csrf}">
<label class="field">App id <span class="hint">the merchant's login_hint</span>
<input name="app_id" value="${model.appId ?? ''}" required maxlength="200" autocomplete="off"></label>
<label class="field">Provisioning code <span class="hint">a provisioning only: the <code>provisioning_code</code> of the merchant's backchannel answer</span>
<input name="provisioning_code" value="${model.provisioningCode ?? ''}" maxlength="64" autocomplete="off"></label>
<button type="submit" class="continue">Show open requests</button>
</form>
${model.appId && model.requests.length === 0 ? html`<p>No open request for this app id (a provisioning shows with its code; apps bound with an app secret answer in the app only).</p>` : ''}
${model.requests.map(
  (r) => html`<form class="request" method="post" action="/ciba/test/requests/${r.id}" data-request="${r.id}">
<input type="hidden" name="_csrf" value="${model.csrf}">
<input type="hidden" name="app_id" value="${model.appId ?? ''}">
${model.provisioningCode && r.kind === 'provisioning' ? html`<input type="hidden" name="provisioning_code" value="${model.provisioningCode}">` : ''}
<h2>${r.merchant_name}: ${r.kind}</h2>
${r.binding_message ? html`<div class="context">${r.binding_message}</div>` : ''}
${r.transaction_text ? html`<div class="context">${r.transaction_text.content}</div>` : ''}
<label class="field">Specimen holder <select name="person">${model.persons.map((p) => html`<option value="${p.id}">${p.label}</option>`)}</select></label>
<button type="submit" class="continue" name="action" value="approve">Approve</button>
<button type="submit" class="secondary" name="action" value="decline">Decline</button>
</form>`,
)}`,
  );
}
