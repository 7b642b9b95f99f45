import type { KoaContextWithOIDC } from 'oidc-provider';
import { html } from '../../common/html/escape.js';
import { pickLocale, type UiLocale } from '../../i18n/locales.js';
import { LOGOUT_MESSAGES } from '../../i18n/logout-messages.js';
import { focusedHeading, layout, type PageSite } from '../../common/pages/layout.js';
import { clientLogo } from './merchant-client.js';

/** Who asked for the logout, as the user knows it (the merchant's name), else our host. */
function requester(ctx: KoaContextWithOIDC): string {
  return ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId ?? ctx.host;
}

function localeOf(ctx: KoaContextWithOIDC): UiLocale {
  const params = (ctx.oidc?.params ?? {}) as Record<string, unknown>;
  return pickLocale(params.ui_locale, params.ui_locales, ctx.get('accept-language'));
}

/** The engine's logout pages (features.rpInitiatedLogout) in this service's page frame. */
export function logoutPages(site: PageSite) {
  return {
    logoutSource: (ctx: KoaContextWithOIDC, engineForm: string) => logoutSource(site, ctx, engineForm),
    postLogoutSuccessSource: (ctx: KoaContextWithOIDC) => postLogoutSuccessSource(site, ctx),
  };
}

/**
 * The global logout's confirmation (the engine's `logoutSource`): our page frame (no script, CSP unchanged)
 * with two one-button forms to the engine's confirm endpoint. Both carry the engine's xsrf value, a secret
 * kept in the browser's session and checked on confirm: the same rule as the broker pages' CSRF tokens (a
 * third-party page can neither read nor forge it), so a cross-site POST cannot sign anyone out. `logout=yes`
 * ends the whole broker session (every merchant); without it only the asking merchant's login ends.
 */
async function logoutSource(site: PageSite, ctx: KoaContextWithOIDC, _engineForm: string): Promise<void> {
  const m = LOGOUT_MESSAGES[localeOf(ctx)];
  const who = requester(ctx);
  const action = ctx.oidc.urlFor('end_session_confirm');
  const xsrf = String((ctx.oidc.session?.state as { secret?: unknown } | undefined)?.secret ?? '');
  ctx.type = 'html';
  ctx.body = layout(
    site,
    localeOf(ctx),
    m.title,
    html`<h1>${m.title}</h1>
<p>${m.question.replace('{merchant}', who)}</p>
<form class="choice" method="post" action="${action}" data-logout="everywhere">
<input type="hidden" name="xsrf" value="${xsrf}">
<input type="hidden" name="logout" value="yes">
<button type="submit" autofocus>${m.everywhere}</button>
</form>
${
  ctx.oidc.client
    ? html`<form class="choice" method="post" action="${action}" data-logout="only">
<input type="hidden" name="xsrf" value="${xsrf}">
<button type="submit">${m.onlyThis.replace('{merchant}', who)}</button>
</form>`
    : ''
}`,
    { logo: clientLogo(ctx.oidc.client) },
  );
}

/** Where the logout ends when the merchant gave no registered return address. */
async function postLogoutSuccessSource(site: PageSite, ctx: KoaContextWithOIDC): Promise<void> {
  const m = LOGOUT_MESSAGES[localeOf(ctx)];
  ctx.type = 'html';
  ctx.body = layout(
    site,
    localeOf(ctx),
    m.title,
    html`${focusedHeading(m.title)}
<p data-logout="done">${m.done}</p>`,
    { logo: clientLogo(ctx.oidc.client) },
  );
}
