import { randomUUID } from 'node:crypto';
import { describeWithPostgres } from '../support/describe-with-postgres.js';
import { startIssuerStateApp, type IssuerStateApp } from '../support/issuer-state-app.js';
import { readStatusListToken } from '../support/status-list-token.js';
import { CredentialIssuancesService, MAX_TX_CODE_FAILURES } from '../../src/credential-issuer/issuances/credential-issuances.service.js';
import { CredentialStatusService, revocationHandle, revocationPageUrl } from '../../src/credential-issuer/issuer-state.js';

/** The redemption's hook for the DPoP proof's single use: these tests call the service without HTTP, so without a proof. */
const noDpopProof = async () => undefined;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/**
 * The person's revocation page: a question with a CSRF-protected form; the POST revokes the whole issuance once, or
 * burns the offer when nothing was issued from it yet.
 */
describeWithPostgres('credential issuer revocation page', () => {
  let t: IssuerStateApp;
  let status: CredentialStatusService;

  beforeAll(async () => {
    t = await startIssuerStateApp();
    status = t.app.get(CredentialStatusService);
  });
  afterAll(() => t?.close());

  async function issued(count: number) {
    const { handle, hash } = revocationHandle();
    const issuanceId = randomUUID();
    const refs = await status.allocate(count, { issuanceId, recordId: null, expiresAt: new Date(Date.now() + 86_400_000), revocationHandleHash: hash });
    return { handle, refs, url: revocationPageUrl(t.baseUrl, handle).replace(t.baseUrl, t.origin) };
  }

  it('asks first, refuses a POST without the form token, revokes with it, and knows the link no more after', async () => {
    const { handle, refs, url } = await issued(3);
    expect(handle).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const page = await fetch(url, { headers: { 'accept-language': 'en-GB' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const body = await page.text();
    expect(body).toContain('Revoke the credentials in your wallet?');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(body)?.[1];
    const cookie = page.headers.get('set-cookie')?.split(';')[0];
    expect(csrf).toBeTruthy();
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
    const post = (fields: Record<string, string>, withCookie = true) =>
      fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(withCookie ? { cookie: cookie! } : {}) },
        body: form(fields),
      });

    // No token, a wrong one, or the token without the page's cookie (another site's form): refused, nothing revoked.
    for (const [fields, withCookie] of [
      [{}, true],
      [{ _csrf: 'x'.repeat(43) }, true],
      [{ _csrf: csrf! }, false],
    ] as const) {
      const refused = await post(fields, withCookie);
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain('data-error="csrf_rejected"');
    }
    expect(
      (await t.dataSource.query('SELECT count(*)::int AS n FROM issued_credential_status WHERE status = 1 AND idx = ANY($1)', [refs.map((r) => r.idx)]))[0].n,
    ).toBe(0);

    // Post/redirect/get: the POST answers 303 to the link, which shows "revoked" to this browser (its proof cookie).
    const done = await post({ _csrf: csrf!, ui_locale: 'nb_NO' });
    expect(done.status).toBe(303);
    expect(done.headers.get('cache-control')).toBe('no-store');
    const location = new URL(done.headers.get('location')!, url);
    expect(location.pathname).toBe(new URL(url).pathname);
    expect(location.searchParams.get('ui_locale')).toBe('nb_NO');
    const proof = done.headers.get('set-cookie')!;
    expect(proof).toMatch(/^vci_revoked=[A-Za-z0-9_-]{43}; Path=\/vci\/revoke\/[A-Za-z0-9_-]{43}; Max-Age=600; HttpOnly; SameSite=Strict/);
    for (let reload = 0; reload < 2; reload++) {
      const shown = await fetch(location, { headers: { cookie: `${cookie!}; ${proof.split(';')[0]}` } });
      expect(shown.status).toBe(200);
      expect(shown.headers.get('cache-control')).toBe('no-store');
      const text = await shown.text();
      expect(text).toContain('data-revocation="done"');
      expect(text).toContain('<html lang="nb-NO">');
    }
    const token = readStatusListToken(await (await fetch(refs[0].uri.replace(t.baseUrl, t.origin))).text());
    expect(refs.map((r) => token.status(r.idx))).toEqual([1, 1, 1]);

    const again = await post({ _csrf: csrf! });
    expect(again.status).toBe(404);
    expect(await again.text()).toContain('data-revocation="unknown"');
    expect((await fetch(url)).status).toBe(404);
  });

  it("speaks the person's language (Norwegian Bokmål here)", async () => {
    const { url } = await issued(1);
    const page = await fetch(`${url}?ui_locale=nb_NO`);
    const body = await page.text();
    expect(body).toContain('<html lang="nb-NO">');
    expect(body).toContain('Vil du trekke tilbake attestene i lommeboken din?');
  });

  describe('before anything was issued (the link is shown with the offer)', () => {
    let issuances: CredentialIssuancesService;
    beforeAll(() => {
      issuances = t.app.get(CredentialIssuancesService);
    });

    const offered = async (recordId = randomUUID()) => {
      const offer = (await issuances.offer(recordId, 'merchant'))!;
      return { offer, url: revocationPageUrl(t.baseUrl, offer.revocationHandle).replace(t.baseUrl, t.origin) };
    };
    /** The page's question: its form token and cookie (the page must be there). */
    const ask = async (url: string) => {
      const page = await fetch(url);
      expect(page.status).toBe(200);
      return { csrf: /name="_csrf" value="([^"]+)"/.exec(await page.text())![1], cookie: page.headers.get('set-cookie')!.split(';')[0] };
    };
    const confirm = (url: string, { csrf, cookie }: { csrf: string; cookie: string }) =>
      fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: form({ _csrf: csrf }) });
    const stateOf = async (issuanceId: string) =>
      (await t.dataSource.query('SELECT state FROM credential_issuances WHERE id = $1', [issuanceId]))[0].state as string;

    it('revokes an offer not yet redeemed: it is burnt, its code redeems nothing, and the link is known no more', async () => {
      const { offer, url } = await offered();
      const done = await confirm(url, await ask(url));
      expect(done.status).toBe(303);
      expect(await stateOf(offer.issuanceId)).toBe('burnt');
      await expect(issuances.redeem(offer.preAuthorizedCode, offer.txCode, 'jkt', noDpopProof)).rejects.toMatchObject({ code: 'invalid_grant' });
      expect(await issuances.liveOffer(offer.offerHandle)).toBeUndefined();
      const again = await fetch(url);
      expect(again.status).toBe(404);
      expect(await again.text()).toContain('data-revocation="unknown"');
    });

    it('revokes an offer redeemed but not yet issued: its access token is of no use any more', async () => {
      const { offer, url } = await offered();
      const { accessToken } = await issuances.redeem(offer.preAuthorizedCode, offer.txCode, 'the-wallet-jkt', noDpopProof);
      expect((await confirm(url, await ask(url))).status).toBe(303);
      expect(await stateOf(offer.issuanceId)).toBe('burnt');
      await expect(issuances.tokenHolder(accessToken, 'the-wallet-jkt')).rejects.toMatchObject({ code: 'invalid_token' });
    });

    it('answers "unknown" for an offer burnt otherwise (too many wrong transaction codes) with nothing issued', async () => {
      const { offer, url } = await offered();
      const question = await ask(url);
      const wrong = offer.txCode === '000000' ? '000001' : '000000';
      for (let i = 0; i < MAX_TX_CODE_FAILURES; i++)
        await expect(issuances.redeem(offer.preAuthorizedCode, wrong, 'jkt', noDpopProof)).rejects.toMatchObject({ code: 'invalid_grant' });
      expect(await stateOf(offer.issuanceId)).toBe('burnt');
      const late = await confirm(url, question);
      expect(late.status).toBe(404);
      expect(await late.text()).toContain('data-revocation="unknown"');
      expect((await fetch(url)).status).toBe(404);
    });
  });

  it('answers an unknown or malformed handle with the same 404 page', async () => {
    for (const handle of [revocationHandle().handle, 'short', 'a'.repeat(500)]) {
      const res = await fetch(`${t.origin}/vci/revoke/${handle}`);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('data-revocation="unknown"');
    }
  });
});
