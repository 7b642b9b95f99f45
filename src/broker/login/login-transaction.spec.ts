import type { DiscoveryService } from '@nestjs/core';
import { CsrfTokens } from '../../common/pages/csrf.js';
import { Telemetry } from '../../common/telemetry/telemetry.js';
import type { AppConfig } from '../../config/load-config.js';
import { messagesFor } from '../../i18n/messages.js';
import { EidRegistry } from '../schemes/eid-registry.js';
import type { BrokeredIdentity, EidProvider, EidRequest, EidStep } from '../spi/eid-provider.js';
import type { PendingRedirectsService } from '../spi/redirects/pending-redirects.service.js';
import type { CredentialOfferMaker } from '../spi/credential-offers.js';
import { type LoginContext, LoginTransaction } from './login-transaction.js';

/**
 * The broker core's login transaction alone: its collaborators are stubs (schemes answering fixed steps, pending
 * redirects in a map, no discovery), so each test reads as the rule it checks and runs in milliseconds.
 */
const COOKIE_KEY = 'k'.repeat(64);
const config = { cookieKeys: [COOKIE_KEY], isProduction: false } as unknown as AppConfig;
const csrf = new CsrfTokens(COOKIE_KEY);
const identity: BrokeredIdentity = { subject: 'person-1', claims: { given_name: 'Erika' }, amr: ['hwk'], authTime: new Date(0), evidenceRef: 'rec-1' };

/** A scheme whose steps the test sets; it records what the core asked of it. */
function scheme(id: string, steps: Partial<Record<'start' | 'handle' | 'resume', EidStep>> = {}, redirects = false) {
  const calls: { method: string; input?: Record<string, string>; pending?: Record<string, unknown> }[] = [];
  const provider: EidProvider & { resume?: unknown } = {
    id,
    testOnly: false,
    displayName: () => `Scheme ${id}`,
    start: async () => (calls.push({ method: 'start' }), steps.start ?? { kind: 'redirect', url: `https://${id}.example/start` }),
    handle: async (_r: EidRequest, input: Record<string, string>) => (
      calls.push({ method: 'handle', input }),
      steps.handle ?? { kind: 'identified', identity }
    ),
  };
  if (redirects)
    provider.resume = async (_r: EidRequest, pending: Record<string, unknown>) => (
      calls.push({ method: 'resume', pending }),
      steps.resume ?? { kind: 'identified', identity }
    );
  return { provider, calls };
}

function request(overrides: Partial<EidRequest> = {}): EidRequest {
  return {
    interactionUid: 'uid-1',
    clientId: 'shop',
    merchantName: 'Shop',
    locale: 'en_GB',
    messages: messagesFor('en_GB'),
    scopes: ['openid'],
    acrValues: [],
    ...overrides,
  };
}

function setup(providers: EidProvider[], options: { offer?: CredentialOfferMaker; pending?: Map<string, Record<string, unknown>> } = {}) {
  const registry = new EidRegistry(providers, config);
  const pending = options.pending ?? new Map<string, Record<string, unknown>>();
  const redirects = {
    // The real service's rule: pending for exactly this interaction and scheme, then used up.
    consume: async (state: string, uid: string, schemeId: string) => {
      const data = pending.get(`${state}|${uid}|${schemeId}`);
      pending.delete(`${state}|${uid}|${schemeId}`);
      return data;
    },
  } as unknown as PendingRedirectsService;
  const discovery = {
    getProviders: () => (options.offer ? [{ instance: options.offer }] : []),
    getMetadataByDecorator: () => undefined,
  } as unknown as DiscoveryService;
  const telemetry = new Telemetry();
  const events: string[] = [];
  telemetry.on('loginStarted', (id: string) => events.push(`started:${id}`));
  telemetry.on('loginFinished', (id: string, outcome: string) => events.push(`finished:${id}:${outcome}`));
  const transaction = new LoginTransaction(config, registry, redirects, discovery, telemetry);
  transaction.onModuleInit();
  return { transaction, events };
}

async function open(
  transaction: LoginTransaction,
  overrides: Partial<EidRequest> = {},
  allowed: string[] | null = null,
  offerCredential = false,
): Promise<LoginContext> {
  return transaction.open({
    uid: 'uid-1',
    pagesPath: '/its/interaction/uid-1',
    request: request(overrides),
    allowedSchemes: allowed,
    context: [],
    offerCredential,
  });
}

describe('LoginTransaction (broker core, collaborators stubbed)', () => {
  it('opens a login with the schemes the merchant allows, and shows the choice when more than one is left', async () => {
    const { transaction } = setup([scheme('a').provider, scheme('b').provider, scheme('c').provider]);
    const login = await open(transaction, {}, ['a', 'c']);
    expect(login.schemes.map((s) => s.id)).toEqual(['a', 'c']);
    const outcome = await transaction.begin(login);
    expect(outcome.kind).toBe('page');
    const html = outcome.kind === 'page' ? outcome.html : '';
    expect(html).toContain('/its/interaction/uid-1/eid/a/start');
    expect(html).toContain('/its/interaction/uid-1/eid/c/start');
    expect(html).not.toContain('/eid/b/');
    expect(html).toContain(csrf.issue('uid-1'));
  });

  it('starts the only scheme at once, or the one login_hint preselects, and counts the start', async () => {
    const only = scheme('only');
    const single = setup([only.provider]);
    expect(await single.transaction.begin(await open(single.transaction))).toEqual({ kind: 'redirect', url: 'https://only.example/start' });
    expect(single.events).toEqual(['started:only']);

    const a = scheme('a');
    const b = scheme('b');
    const hinted = setup([a.provider, b.provider]);
    expect(await hinted.transaction.begin(await open(hinted.transaction, { loginHint: 'eid:b' }))).toEqual({
      kind: 'redirect',
      url: 'https://b.example/start',
    });
    expect(a.calls).toEqual([]);
    expect(b.calls).toEqual([{ method: 'start' }]);
  });

  it('refuses a choice, an input or a cancel without the CSRF token of this very interaction', async () => {
    const a = scheme('a');
    const { transaction } = setup([a.provider, scheme('b').provider]);
    const login = await open(transaction);
    const otherUids = csrf.issue('uid-2');
    expect(() => transaction.choose(login, 'a', {})).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => transaction.choose(login, 'a', { _csrf: otherUids })).toThrow(expect.objectContaining({ status: 403 }));
    await expect(transaction.input(login, 'a', { _csrf: otherUids, person: 'x' })).rejects.toMatchObject({ status: 403 });
    expect(() => transaction.cancel(login, { _csrf: 'forged' })).toThrow(expect.objectContaining({ status: 403 }));
    expect(a.calls).toEqual([]);
  });

  it('refuses a scheme the merchant does not allow, whatever the form says', async () => {
    const { transaction } = setup([scheme('a').provider, scheme('b').provider]);
    const login = await open(transaction, {}, ['a']);
    expect(() => transaction.choose(login, 'b', { _csrf: csrf.issue('uid-1') })).toThrow(expect.objectContaining({ status: 404, code: 'unknown_eid_scheme' }));
    await expect(transaction.schemePage(login, 'b', false)).rejects.toMatchObject({ status: 404, code: 'unknown_eid_scheme' });
    await expect(transaction.input(login, 'b', { _csrf: csrf.issue('uid-1') })).rejects.toMatchObject({ status: 404 });
  });

  it("passes the scheme only its own string fields (never the CSRF token) and ends with the scheme's identity", async () => {
    const a = scheme('a');
    const { transaction, events } = setup([a.provider, scheme('b').provider]);
    const login = await open(transaction);
    const outcome = await transaction.input(login, 'a', { _csrf: csrf.issue('uid-1'), person: 'uto-td3', nested: { x: 1 } });
    expect(a.calls).toEqual([{ method: 'handle', input: { person: 'uto-td3' } }]);
    expect(outcome).toEqual({ kind: 'identified', scheme: a.provider, identity });
    expect(events).toEqual(['finished:a:success']);
  });

  it('shows a page the scheme wants shown again (choices, waiting) by a redirect to its GET, not as the answer to the post', async () => {
    const a = scheme('a', { handle: { kind: 'choices', title: 'Pick', choices: [] } });
    const { transaction } = setup([a.provider, scheme('b').provider]);
    const login = await open(transaction);
    expect(await transaction.input(login, 'a', { _csrf: csrf.issue('uid-1') })).toEqual({ kind: 'redirect', url: '/its/interaction/uid-1/eid/a' });
  });

  it("answers a scheme's failure with its error and reason, and counts it", async () => {
    const a = scheme('a', { start: { kind: 'failed', error: 'temporarily_unavailable', description: 'down', reason: 'upstream_error' } });
    const { transaction, events } = setup([a.provider]);
    const outcome = await transaction.begin(await open(transaction));
    expect(outcome).toEqual({ kind: 'failed', error: 'temporarily_unavailable', description: 'down', reason: 'upstream_error' });
    expect(events).toEqual(['started:a', 'finished:a:failure']);
  });

  it("renders a scheme's waiting step as the waiting page: its status URL, the no-script refresh, the scheme's Continue and the CSRF token", async () => {
    const waiting: EidStep = {
      kind: 'waiting',
      title: 'Use your phone',
      qrSvg: '<svg id="qr"/>',
      link: 'https://app.example/x',
      statusUrl: '/its/status/x',
      state: 's',
      progress: 'waiting',
      steps: [{ id: 'scanned', label: 'Code scanned' }],
    };
    const a = scheme('a', { start: waiting });
    const { transaction } = setup([a.provider]);
    const outcome = await transaction.begin(await open(transaction));
    const html = outcome.kind === 'page' ? outcome.html : '';
    expect(html).toContain('/its/status/x');
    expect(html).toContain('Code scanned');
    expect(html).toContain('/its/interaction/uid-1/eid/a?progress');
    expect(html).toContain('action="/its/interaction/uid-1/eid/a"');
    expect(html).toContain('action="/its/interaction/uid-1/cancel"');
    expect(html).toContain(csrf.issue('uid-1'));
  });

  it('a cancel with the token ends the login as access_denied', async () => {
    const { transaction } = setup([scheme('a').provider, scheme('b').provider]);
    const login = await open(transaction);
    expect(transaction.cancel(login, { _csrf: csrf.issue('uid-1') })).toEqual({
      kind: 'failed',
      error: 'access_denied',
      description: 'the user cancelled the sign-in',
    });
  });

  it('resumes a redirect scheme only with a state pending for this interaction and scheme, once', async () => {
    const pending = new Map<string, Record<string, unknown>>([['s1|uid-1|up', { nonce: 'n' }]]);
    const up = scheme('up', {}, true);
    const other = scheme('other', {}, true);
    const { transaction } = setup([up.provider, other.provider], { pending });
    const login = await open(transaction);
    await expect(transaction.resume(login, 'other', { state: 's1' })).rejects.toMatchObject({ status: 400 });
    await expect(transaction.resume(login, 'up', {})).rejects.toMatchObject({ status: 400 });
    expect(await transaction.resume(login, 'up', { state: 's1', code: 'c' })).toMatchObject({ kind: 'identified' });
    expect(up.calls).toEqual([{ method: 'resume', pending: { nonce: 'n' } }]);
    await expect(transaction.resume(login, 'up', { state: 's1', code: 'c' })).rejects.toMatchObject({ status: 400 });
  });

  it('refuses to resume a scheme that never redirects', async () => {
    const { transaction } = setup([scheme('plain').provider, scheme('b').provider]);
    await expect(transaction.resume(await open(transaction), 'plain', { state: 's' })).rejects.toMatchObject({ status: 404, code: 'unknown_eid_scheme' });
  });

  it('shows the credential offer once before the identity goes to the merchant, when the merchant asked for it', async () => {
    const offers: string[] = [];
    const offer: CredentialOfferMaker = {
      offerAfterSignIn: async (_identity, clientId) => (
        offers.push(clientId),
        { link: 'openid-credential-offer://x', txCode: '1234', revokeUrl: '/vci/revoke/x', expiresAt: new Date(60_000) }
      ),
    };
    const a = scheme('a', { start: { kind: 'identified', identity } });
    const { transaction } = setup([a.provider], { offer });
    const login = await open(transaction, {}, null, true);
    // Made once, kept by the front door and shown by GET (post/redirect/get): the page shows what was kept.
    const first = await transaction.begin(login);
    const kept = { link: 'openid-credential-offer://x', txCode: '1234', revokeUrl: '/vci/revoke/x', expiresAt: new Date(60_000) };
    expect(first).toEqual({ kind: 'offered', scheme: 'a', offer: kept, url: '/its/interaction/uid-1/eid/a/offer' });
    const shown = await transaction.offerShown(login, 'a', kept);
    expect(shown.kind === 'page' && shown.html).toContain('data-tx-code="1234"');
    expect(shown.kind === 'page' && shown.html).toContain('<svg');
    expect(offers).toEqual(['shop']);
    // Nothing kept (cookie gone, or expired): the scheme's page; the GET itself makes no offer.
    expect(await transaction.offerShown(login, 'a', undefined)).toEqual({ kind: 'redirect', url: '/its/interaction/uid-1/eid/a' });
    expect(offers).toEqual(['shop']);
    // Continue on the offer page: the same identity, now handed on.
    const after = await transaction.input(login, 'a', { _csrf: csrf.issue('uid-1'), after_offer: '1' });
    expect(after).toEqual({ kind: 'identified', scheme: a.provider, identity });
    expect(offers).toEqual(['shop']);
  });

  it('offers nothing when the merchant did not ask, even with an offer maker present', async () => {
    const offer = {
      offerAfterSignIn: async () => {
        throw new Error('must not be asked');
      },
    } as unknown as CredentialOfferMaker;
    const a = scheme('a', { start: { kind: 'identified', identity } });
    const { transaction } = setup([a.provider], { offer });
    expect(await transaction.begin(await open(transaction))).toEqual({ kind: 'identified', scheme: a.provider, identity });
  });
});
