import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Request } from 'express';
import { html } from '../../common/html/escape.js';
import { requestIdOf } from '../../common/logging/request-context.js';
import { pickLocale, type UiLocale } from '../../i18n/locales.js';
import { messagesFor } from '../../i18n/messages.js';
import { layout } from '../interaction/pages/layout.js';

export function errorPage(locale: UiLocale, error: string, description: string | undefined, requestId?: string): string {
  const m = messagesFor(locale);
  return layout(
    locale,
    m.errorTitle,
    html`<h1>${m.errorTitle}</h1>
<p>${m.errorText} ${m.backToService}</p>
<p><code>${error}</code>${description ? html`: ${description}` : ''}</p>
${requestId ? html`<p class="ref">${m.requestId}: ${requestId}</p>` : ''}`,
  );
}

/** The engine's error page (an authorization error that cannot be redirected: unknown client, bad redirect_uri). */
export async function renderError(ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }): Promise<void> {
  const params = (ctx.oidc?.params ?? ctx.query ?? {}) as Record<string, unknown>;
  const locale = pickLocale(params.ui_locale, params.ui_locales);
  ctx.type = 'html';
  ctx.body = errorPage(locale, out.error, out.error_description, requestIdOf(ctx.req as Request));
}
