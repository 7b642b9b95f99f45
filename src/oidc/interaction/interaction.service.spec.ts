import type { Request, Response } from 'express';
import type { LoginAnswer, OwnedLogin } from '../../broker/login/login-front-doors.js';
import type { LoginRequests } from '../../broker/login/login-requests.js';
import type { LoginOpening, LoginOutcome, LoginTransaction } from '../../broker/login/login-transaction.js';
import type { BrokeredLoginsService } from '../../broker/logins/brokered-logins.service.js';
import type { BrokeredIdentity, EidProvider } from '../../broker/spi/eid-provider.js';
import type { AppConfig } from '../../config/load-config.js';
import type { MerchantsService } from '../../merchants/merchants.service.js';
import type { OidcProviderService } from '../provider/oidc-provider.service.js';
import type { EngineInteractionResults } from './engine-interaction-results.js';
import { SecretBox } from '../../common/crypto/secret-box.js';
import { InteractionService } from './interaction.service.js';

/**
 * The OIDC front door of the broker pages alone: the engine's interaction, the merchants, the login transaction, the
 * core's front-door logins and the engine's results are stubs recording what they were asked; the response is a
 * recorder. It checks how the service answers each outcome, and that a login another front door started ends with
 * that front door's answer (data, written here), never with the engine's result.
 */
const config = { cookieKeys: ['k'.repeat(64)], isProduction: false, baseUrl: 'http://localhost' } as unknown as AppConfig;
const identity: BrokeredIdentity = { subject: 'person-1', claims: {}, amr: ['hwk'], authTime: new Date(1_000_000) };
const scheme = { id: 'test' } as EidProvider;
const SEALED = 'sealed-owner';
const secretBox = new SecretBox('k1', new Map([['k1', Buffer.alloc(32, 7)]]));
const offer = { link: 'openid-credential-offer://x', txCode: '123456', revokeUrl: '/vci/revoke/r', expiresAt: new Date(Date.now() + 600_000) };

/** What a test reads of the response: status, headers, where it redirected, what it sent. */
function recorder() {
  const written: { status?: number; headers: Record<string, string>; redirect?: [number, string]; type?: string; body?: string } = { headers: {} };
  const res = {
    locals: {},
    status: (s: number) => ((written.status = s), res),
    set: (h: Record<string, string>) => (Object.assign(written.headers, h), res),
    append: (name: string, value: string) => ((written.headers[name.toLowerCase()] = value), res),
    redirect: (s: number, url: string) => void (written.redirect = [s, url]),
    type: (t: string) => ((written.type = t), res),
    send: (body: string) => void (written.body = body),
  };
  return { res: res as unknown as Response, written };
}

function setup(outcome: LoginOutcome, options: { owned?: boolean; locale?: string } = {}) {
  const calls: string[] = [];
  const params: Record<string, unknown> = { client_id: 'shop', scope: 'openid profile', ...(options.locale ? { ui_locale: options.locale } : {}) };
  if (options.owned) params.brokered_login = SEALED;
  const details = { uid: 'uid-1', params, prompt: { name: 'login' }, destroy: async () => void calls.push('destroy') };
  const oidc = { engine: { interactionDetails: async () => details } } as unknown as OidcProviderService;
  const merchant = { clientId: 'shop', name: 'Shop', eidSchemes: null, offerCredential: false, defaultUiLocale: null };
  const merchants = { findEnabled: async (id: string) => (id === 'shop' ? merchant : undefined) } as unknown as MerchantsService;
  const logins = { store: async (clientId: string, grantId: string, schemeId: string) => void calls.push(`store:${clientId}:${grantId}:${schemeId}`) };
  const answers: { login: OwnedLogin; end: string }[] = [];
  const samlAnswer: LoginAnswer = { kind: 'page', status: 200, html: '<form data-saml-post="auto">', headers: { 'Cache-Control': 'no-store' } };
  const loginRequests = {
    ownerOf: (sealed: unknown, clientId: string) => (sealed === SEALED ? { frontDoor: 'saml', ownerRef: 'saml:tx-1', clientId } : undefined),
    identified: async (login: OwnedLogin, schemeId: string) => (calls.push('answer'), answers.push({ login, end: `identified:${schemeId}` }), samlAnswer),
    failed: async (login: OwnedLogin, error: string) => (calls.push('answer'), answers.push({ login, end: `failed:${error}` }), samlAnswer),
  } as unknown as LoginRequests;
  const results = {
    newGrant: async () => (calls.push('grant'), 'grant-1'),
    finish: async (_res: Response, _d: unknown, result: Record<string, unknown>) => void calls.push(`finish:${Object.keys(result).join(',')}`),
    saveResult: async () => (calls.push('saveResult'), '/its/index.html/resume/uid-1'),
  } as unknown as EngineInteractionResults;
  const transaction = {
    open: async (opening: LoginOpening) => ({ ...opening, schemes: [scheme] }),
    begin: async () => outcome,
    offerShown: async (_login: unknown, _scheme: string, offer: unknown) => ({ kind: 'page', html: JSON.stringify(offer ?? null) }),
  } as unknown as LoginTransaction;
  const service = new InteractionService(config, oidc, merchants, logins as unknown as BrokeredLoginsService, loginRequests, results, transaction, secretBox);
  const req = { headers: { 'accept-language': 'de-DE' }, query: {} } as unknown as Request;
  return { service, req, calls, answers };
}

describe('InteractionService (the OIDC front door of the broker pages, collaborators stubbed)', () => {
  it('answers a page with 200 and a redirect with 303, as the login transaction gives them', async () => {
    const page = setup({ kind: 'page', html: '<h1>Choose</h1>' });
    const shown = recorder();
    await page.service.show(page.req, shown.res);
    expect(shown.written).toMatchObject({ status: 200, type: 'html', body: '<h1>Choose</h1>' });
    const redirect = setup({ kind: 'redirect', url: 'https://eid.example/start' });
    const sent = recorder();
    await redirect.service.show(redirect.req, sent.res);
    expect(sent.written.redirect).toEqual([303, 'https://eid.example/start']);
  });

  it("ends its own merchant's login with the engine's result: a grant, the brokered login stored, login and consent", async () => {
    const { service, req, calls, answers } = setup({ kind: 'identified', scheme, identity });
    await service.show(req, recorder().res);
    expect(calls).toEqual(['grant', 'store:shop:grant-1:test', 'finish:login,consent,select_account']);
    expect(answers).toEqual([]);
  });

  it('ends a login another front door started with its answer, written as it is: no grant, no engine result, the interaction destroyed first', async () => {
    const { service, req, calls, answers } = setup({ kind: 'identified', scheme, identity }, { owned: true });
    const { res, written } = recorder();
    await service.show(req, res);
    expect(calls).toEqual(['destroy', 'answer']);
    // The page's language goes with the login: the broker pages' rule (here the browser's Accept-Language).
    expect(answers).toEqual([{ login: { frontDoor: 'saml', ownerRef: 'saml:tx-1', clientId: 'shop', locale: 'de_DE' }, end: 'identified:test' }]);
    expect(written).toMatchObject({ status: 200, type: 'html', body: '<form data-saml-post="auto">', headers: { 'Cache-Control': 'no-store' } });
  });

  it('hands a failure of such a login to its owner at once, without our page in between', async () => {
    const { service, req, calls, answers } = setup({ kind: 'failed', error: 'access_denied', description: 'cancelled', reason: 'cancelled' }, { owned: true });
    await service.show(req, recorder().res);
    expect(calls).toEqual(['destroy', 'answer']);
    expect(answers.map((a) => a.end)).toEqual(['failed:access_denied']);
  });

  it("shows its own merchant's failure with a reason on our page first (the engine's result saved behind its link)", async () => {
    const { service, req, calls, answers } = setup({ kind: 'failed', error: 'access_denied', description: 'cancelled', reason: 'cancelled' });
    const { res, written } = recorder();
    await service.show(req, res);
    expect(calls).toEqual(['saveResult']);
    expect(written.body).toContain('/its/index.html/resume/uid-1');
    expect(answers).toEqual([]);
  });

  it("ends its own merchant's failure without a reason with the engine's error result", async () => {
    const { service, req, calls } = setup({ kind: 'failed', error: 'temporarily_unavailable', description: 'down' });
    await service.show(req, recorder().res);
    expect(calls).toEqual(['finish:error,error_description']);
  });

  it('writes a redirect answer of a front door with its status and headers', async () => {
    const { service, req } = setup({ kind: 'identified', scheme, identity }, { owned: true });
    const answer: LoginAnswer = { kind: 'redirect', status: 303, location: 'https://wallet.example/cb?code=c', headers: { 'Cache-Control': 'no-store' } };
    (service as unknown as { loginRequests: { identified: () => Promise<LoginAnswer> } }).loginRequests.identified = async () => answer;
    const { res, written } = recorder();
    await service.show(req, res);
    expect(written).toMatchObject({ redirect: [303, 'https://wallet.example/cb?code=c'], headers: { 'Cache-Control': 'no-store' } });
  });

  it('keeps an offer for this browser and login and answers 303 to its page; the GET shows that offer, another browser none', async () => {
    const { service, req } = setup({ kind: 'offered', scheme: 'test', offer, url: '/its/interaction/uid-1/eid/test/offer' });
    const posted = recorder();
    await service.show(req, posted.res);
    expect(posted.written.redirect).toEqual([303, '/its/interaction/uid-1/eid/test/offer']);
    const cookie = posted.written.headers['set-cookie'];
    expect(cookie).toMatch(/^broker_offer=v1\.[^;]+; Path=\/its\/interaction\/uid-1; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    expect(cookie).not.toContain('123456');
    const withCookie = { headers: { cookie: cookie.split(';')[0] }, query: {} } as unknown as Request;
    const shown = recorder();
    await service.showOffer(withCookie, shown.res, 'test');
    expect(JSON.parse(shown.written.body!)).toEqual({ ...offer, expiresAt: offer.expiresAt.toISOString() });
    // Bound to the scheme (and the interaction): the same cookie opens nothing for another, nor does a browser without it.
    for (const [r, schemeId] of [
      [withCookie, 'other'],
      [req, 'test'],
    ] as const) {
      const other = recorder();
      await service.showOffer(r, other.res, schemeId);
      expect(other.written.body).toBe('null');
    }
  });
});
