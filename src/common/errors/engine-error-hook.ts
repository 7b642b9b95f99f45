import type { Request } from 'express';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { requestIdOf } from '../logging/request-context.js';
import type { PageSite } from '../pages/layout.js';
import type { PageLogo } from '../pages/page-logo.js';
import { AppError } from './app-error.js';
import { toErrorBody } from './error-body.js';
import { errorPageLocale } from './error-locale.js';
import { errorPageHtml } from './error-renderer.js';

/**
 * oidc-provider's `renderError` hook: the engine's error page (an authorization error that cannot be redirected:
 * unknown client, bad redirect_uri), made by the error renderer in the language of errorPageLocale, with the
 * engine's checked parameters as the request's own. The engine has set the status and no-store already.
 */
export function engineErrorPage(site: PageSite, logoOf: (client: KoaContextWithOIDC['oidc']['client']) => PageLogo | undefined) {
  return async (ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }): Promise<void> => {
    const req = ctx.req as Request;
    const params = (ctx.oidc?.params ?? ctx.query ?? {}) as Record<string, unknown>;
    ctx.type = 'html';
    // A known merchant (a wrong redirect_uri, say) still shows its logo: the person sees whose sign-in failed.
    ctx.body = errorPageHtml(
      site,
      errorPageLocale(req, undefined, params),
      new AppError(ctx.status, out.error, out.error_description ?? ''),
      requestIdOf(req),
      logoOf(ctx.oidc?.client),
    );
  };
}

/** Replaces an answer of the engine by the JSON error object of `error` (as the engine writes its own: no request id). */
export function answerEngineError(ctx: Pick<KoaContextWithOIDC, 'status' | 'body'>, error: unknown): void {
  const { status, body } = toErrorBody(error);
  ctx.status = status;
  ctx.body = body;
}
