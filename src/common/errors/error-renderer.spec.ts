import express, { type Request, type Response } from 'express';
import { AppError, BadRequestError, InternalError, OwnPageError } from './app-error.js';
import { errorPageLocale } from './error-locale.js';
import { renderError } from './error-renderer.js';
import { type ErrorRoutes, useErrorRoutes } from './error-routes.js';
import { useErrorShapes } from './route-error-shapes.js';
import { addLogSink } from '../logging/logger.js';

/** The renderer's choices (representation, language, what a client may read) with the request and response stubbed. */
const SITE = { privacyNoticeUrl: undefined } as unknown as ErrorRoutes['site'];
const ROUTES: ErrorRoutes = {
  site: SITE,
  answersPage: (req) => (req.originalUrl ?? '').startsWith('/its/'),
  soapFaults: new Map([['/saml/artifact', (e: AppError) => (e.code.startsWith('soap_') ? `<soap:Fault>${e.code}</soap:Fault>` : undefined)]]),
};

function app(routes: ErrorRoutes | null = ROUTES) {
  const application = express();
  if (routes) useErrorRoutes(application, routes);
  useErrorShapes(
    application,
    new Map([['/shaped/', (status, generic) => ({ 'response-code': String(status), 'response-message': generic.error_description })]]),
  );
  return application;
}

function request(url: string, headers: Record<string, string> = {}, application = app()): Request {
  return Object.assign(Object.create(application.request) as Request, { app: application, method: 'GET', url, originalUrl: url, headers, complete: true });
}

interface Written {
  status?: number;
  type?: string;
  headers: Record<string, string>;
  body?: unknown;
}

function response(locals: Record<string, unknown> = {}): { res: Response; written: Written } {
  const written: Written = { headers: {} };
  const res = {
    headersSent: false,
    locals,
    setHeader: (k: string, v: string) => void (written.headers[k.toLowerCase()] = v),
    set: (k: string, v: string) => ((written.headers[k.toLowerCase()] = v), res),
    status: (s: number) => ((written.status = s), res),
    type: (t: string) => ((written.type = t), res),
    send: (b: unknown) => ((written.body = b), res),
    json: (b: unknown) => ((written.type = 'json'), (written.body = b), res),
  };
  return { res: res as unknown as Response, written };
}

function render(req: Request, error: unknown, locals: Record<string, unknown> = {}): Written {
  const { res, written } = response(locals);
  const stop = addLogSink(() => undefined, { capture: true });
  try {
    renderError(req, res, error);
  } finally {
    stop();
  }
  return written;
}

describe('the error renderer', () => {
  describe('JSON', () => {
    it('answers an AppError with its status, code, description and headers', () => {
      const error = new AppError(401, 'unauthorized', 'a valid bearer token is required');
      error.headers = { 'WWW-Authenticate': 'Bearer' };
      const out = render(request('/admin/v1/merchants'), error);
      expect(out).toMatchObject({ status: 401, type: 'json', headers: { 'www-authenticate': 'Bearer' } });
      expect(out.body).toEqual({ error: 'unauthorized', error_description: 'a valid bearer token is required', request_id: undefined });
    });

    it('answers anything else, and an InternalError, as the generic 500 without message, stack or detail', () => {
      for (const error of [new Error('secret internals'), new InternalError('database password is wrong'), 'a string']) {
        const out = render(request('/admin/v1/merchants'), error);
        expect([out.status, out.body]).toEqual([500, { error: 'server_error', error_description: 'internal server error', request_id: undefined }]);
        expect(JSON.stringify(out.body)).not.toMatch(/secret|password|stack/);
      }
    });

    it("keeps the field messages of a bad request and the route's own error shape", () => {
      expect(render(request('/admin/x'), new BadRequestError('bad', { name: ['must be a string'] })).body).toMatchObject({
        fields: { name: ['must be a string'] },
      });
      expect(render(request('/shaped/x'), new BadRequestError('bad')).body).toEqual({
        'response-code': '400',
        'response-message': 'bad',
        request_id: undefined,
      });
    });

    it("answers JSON on an application without error routes (a bare app), even at a page's path", () => {
      expect(render(request('/its/interaction/x', {}, app(null)), new BadRequestError('bad')).type).toBe('json');
    });
  });

  describe('the error page', () => {
    it('answers a page route with the HTML error page, the code and the description folded away', () => {
      const out = render(request('/its/interaction/abc'), new BadRequestError('the form token is missing'));
      expect(out).toMatchObject({ status: 400, type: 'html' });
      expect(out.body).toContain('data-error="invalid_request"');
      expect(out.body).toContain('the form token is missing');
    });

    it('answers JSON on a page route when the client asks for JSON rather than HTML', () => {
      expect(render(request('/its/interaction/abc', { accept: 'application/json' }), new BadRequestError('bad')).type).toBe('json');
      expect(render(request('/its/interaction/abc', { accept: 'text/html,*/*;q=0.8' }), new BadRequestError('bad')).type).toBe('html');
    });

    it('shows the page code where the error has one (a 429 is busy to a person, temporarily_unavailable to a client)', () => {
      const limited = () =>
        Object.assign(new AppError(429, 'temporarily_unavailable', 'too many requests'), { pageCode: 'too_many_requests', headers: { 'Retry-After': '3' } });
      const page = render(request('/its/index.html'), limited());
      expect(page.body).toContain('data-error="too_many_requests"');
      expect(page.headers['retry-after']).toBe('3');
      expect(render(request('/oidc/token'), limited()).body).toMatchObject({ error: 'temporarily_unavailable' });
    });

    it("shows an error's own page on a page route, and its error object elsewhere", () => {
      const refusal = () => new OwnPageError(404, 'not_found', 'nothing here', (_site, locale) => `<p>own page in ${locale}</p>`);
      const page = render(request('/its/link?ui_locale=sv_SE'), refusal());
      expect(page).toMatchObject({ status: 404, type: 'html', body: '<p>own page in sv_SE</p>', headers: { 'cache-control': 'no-store' } });
      expect(render(request('/api/link'), refusal()).body).toMatchObject({ error: 'not_found' });
    });

    it('never shows a stack or an internal message on the page', () => {
      const out = render(request('/its/interaction/abc'), new Error('secret internals'));
      expect(out.status).toBe(500);
      expect(out.body).toContain('data-error="server_error"');
      expect(out.body).not.toContain('secret internals');
    });
  });

  describe('SOAP', () => {
    it("answers an error of the SOAP route's protocol as its fault, a transport error as JSON", () => {
      const fault = render(request('/saml/artifact'), new AppError(400, 'soap_unreadable', 'not a SOAP message'));
      expect(fault).toMatchObject({
        status: 400,
        type: 'text/xml',
        body: '<soap:Fault>soap_unreadable</soap:Fault>',
        headers: { 'cache-control': 'no-store' },
      });
      const transport = render(request('/saml/artifact'), new AppError(413, 'payload_too_large', 'too large'));
      expect(transport).toMatchObject({ status: 413, type: 'json', body: { error: 'payload_too_large' } });
    });
  });

  describe('the page language, picked one way', () => {
    const locale = (url: string, headers: Record<string, string>, locals: Record<string, unknown> = {}) =>
      errorPageLocale(request(url, headers), response(locals).res);

    it("takes the login's own language first", () => {
      expect(locale('/its/x?ui_locale=sv_SE', { 'accept-language': 'de' }, { uiLocale: 'nb_NO' })).toBe('nb_NO');
    });

    it("then the request's ui_locale, then ui_locales, then Accept-Language, then en_GB", () => {
      expect(locale('/its/x?ui_locale=sv_SE&ui_locales=fi', { 'accept-language': 'de' })).toBe('sv_SE');
      expect(locale('/its/x?ui_locales=fi-FI%20nb', { 'accept-language': 'de' })).toBe('fi_FI');
      expect(locale('/its/x?ui_locale=xx_XX', { 'accept-language': 'de-DE,en;q=0.5' })).toBe('de_DE');
      expect(locale('/its/x', {})).toBe('en_GB');
    });

    it("reads the engine's checked parameters in place of the query where the engine answers", () => {
      expect(errorPageLocale(request('/its/index.html', { 'accept-language': 'de' }), undefined, { ui_locales: 'da' })).toBe('da_DK');
    });

    it('is the language the rendered page is written in', () => {
      const out = render(request('/its/interaction/abc', { 'accept-language': 'sv' }), new BadRequestError('bad'));
      expect(out.body).toContain('lang="sv-SE"');
    });
  });
});
