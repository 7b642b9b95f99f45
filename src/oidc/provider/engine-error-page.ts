import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Request } from 'express';
import { requestIdOf } from '../../common/logging/request-context.js';
import { errorPage } from '../../common/pages/error-page.js';
import type { PageSite } from '../../common/pages/layout.js';
import { pickLocale } from '../../i18n/locales.js';
import { clientLogo } from './merchant-client.js';

/** The engine's error page (an authorization error that cannot be redirected: unknown client, bad redirect_uri). */
export function engineErrorPage(site: PageSite) {
  return (ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }) => renderError(site, ctx, out);
}

async function renderError(site: PageSite, ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }): Promise<void> {
  const params = (ctx.oidc?.params ?? ctx.query ?? {}) as Record<string, unknown>;
  const locale = pickLocale(params.ui_locale, params.ui_locales, ctx.get('accept-language'));
  ctx.type = 'html';
  // A known merchant (a wrong redirect_uri, say) still shows its logo: the person sees whose sign-in failed.
  ctx.body = errorPage(site, locale, out.error, out.error_description, requestIdOf(ctx.req as Request), clientLogo(ctx.oidc?.client));
}
