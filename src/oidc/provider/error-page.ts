import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Request } from 'express';
import { html } from '../../common/html/escape.js';
import { requestIdOf } from '../../common/logging/request-context.js';
import { pickLocale, type UiLocale } from '../../i18n/locales.js';
import { ERROR_MESSAGES, errorKind } from '../../i18n/error-messages.js';
import { messagesFor } from '../../i18n/messages.js';
import type { PageLogo } from '../../merchants/logos/page-logo.js';
import { focusedHeading, layout } from '../interaction/pages/layout.js';
import { clientLogo } from './merchant-client.js';

/**
 * The error page a person sees: a sentence in their language for what happened, the code and the request
 * id for support, and the technical description (English, meant for the service's developers) folded away.
 * There is no action to take here, so the focus starts on the heading (read first by a screen reader).
 */
export function errorPage(locale: UiLocale, error: string, description: string | undefined, requestId?: string, logo?: PageLogo): string {
  const m = messagesFor(locale);
  const e = ERROR_MESSAGES[locale];
  return layout(
    locale,
    m.errorTitle,
    html`${focusedHeading(m.errorTitle)}
<p data-error-kind="${errorKind(error)}">${e[errorKind(error)]} ${m.backToService}</p>
<p class="ref">${e.errorCode}: <code data-error="${error}">${error}</code>${requestId ? html`<br>${m.requestId}: <code>${requestId}</code>` : ''}</p>
${description ? html`<details><summary>${e.technicalDetails}</summary><p lang="en">${description}</p></details>` : ''}`,
    { logo },
  );
}

/** The engine's error page (an authorization error that cannot be redirected: unknown client, bad redirect_uri). */
export async function renderError(ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }): Promise<void> {
  const params = (ctx.oidc?.params ?? ctx.query ?? {}) as Record<string, unknown>;
  const locale = pickLocale(params.ui_locale, params.ui_locales, ctx.get('accept-language'));
  ctx.type = 'html';
  // A known merchant (a wrong redirect_uri, say) still shows its logo: the person sees whose sign-in failed.
  ctx.body = errorPage(locale, out.error, out.error_description, requestIdOf(ctx.req as Request), clientLogo(ctx.oidc?.client));
}
