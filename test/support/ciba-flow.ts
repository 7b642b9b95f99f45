import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';

/** The 400 answer of a CIBA call made with openid-client: its error code (fails when the call succeeds). */
export async function cibaError(promise: Promise<unknown>): Promise<{ error: string; description?: string }> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof client.ResponseBodyError) return { error: e.error, description: e.error_description };
    throw e;
  }
  throw new Error('expected the call to be refused');
}

/** A merchant's callback endpoint: records what it receives, answers the statuses it is told to, in order. */
export interface CallbackListener {
  url: string;
  received: { authorization?: string; body: Record<string, unknown>; status: number }[];
  /** Statuses for the next calls (then 204). */
  answers: number[];
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startCallbackListener(): Promise<CallbackListener> {
  const received: CallbackListener['received'] = [];
  const answers: number[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = answers.shift() ?? 204;
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        body = {};
      }
      received.push({ authorization: req.headers.authorization, body, status });
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/ciba-callback`,
    received,
    answers,
    async waitFor(count, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} callbacks, got ${received.length}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A raw CIBA token poll (to see each answer, which openid-client's poll loop hides). */
export async function pollOnce(
  baseUrl: string,
  clientId: string,
  secret: string,
  authReqId: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}/oidc/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'urn:openid:params:grant-type:ciba', auth_req_id: authReqId }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export const provisioning = (appId: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ requestType: 'Provisioning', appId, bindingMessage: 'Link your app', ...extra });

/** The one-time code of a provisioning, from the merchant's backchannel answer (fails when there is none). */
export function provisioningCodeOf(answer: { [member: string]: unknown }): string {
  if (typeof answer.provisioning_code !== 'string') throw new Error('the backchannel answer carries no provisioning_code');
  return answer.provisioning_code;
}

/**
 * customer-test's CIBA page as the phone: answers the newest open request of `appId` with a specimen holder of
 * the test eID (`person`), or declines it; a provisioning shows only with its `provisioningCode`. Answers where
 * the page redirected (…&done=approved|denied).
 */
export async function answerOnTestPage(baseUrl: string, appId: string, person: string | 'decline', provisioningCode?: string): Promise<string | null> {
  const res = await fetch(`${baseUrl}/ciba/test?app_id=${encodeURIComponent(appId)}`);
  const cookie = res.headers.get('set-cookie')!.split(';')[0];
  let page = await res.text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
  if (!csrf) throw new Error('the test page carries no CSRF token');
  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    redirect: 'manual' as const,
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ _csrf: csrf, app_id: appId, ...(provisioningCode ? { provisioning_code: provisioningCode } : {}), ...fields }),
  });
  if (provisioningCode) page = await (await fetch(`${baseUrl}/ciba/test`, form({}))).text();
  const ids = [...page.matchAll(/data-request="([^"]+)"/g)].map((m) => m[1]);
  if (!ids.length) throw new Error(`no open request for ${appId} on the test page`);
  const answered = await fetch(
    `${baseUrl}/ciba/test/requests/${ids[ids.length - 1]}`,
    form(person === 'decline' ? { action: 'decline' } : { person, action: 'approve' }),
  );
  return answered.headers.get('location');
}

/** Binds `appId` at the merchant on the test page (a provisioning answered by the specimen `person`); answers its tokens. */
export async function provisionOnTestPage(
  baseUrl: string,
  config: client.Configuration,
  appId: string,
  person: string,
): Promise<client.TokenEndpointResponse & client.TokenEndpointResponseHelpers> {
  const started = await client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: appId, binding_message: provisioning(appId) });
  const answered = await answerOnTestPage(baseUrl, appId, person, provisioningCodeOf(started));
  if (!answered?.includes('done=approved')) throw new Error(`the provisioning of ${appId} was not approved: ${answered}`);
  return client.pollBackchannelAuthenticationGrant(config, started);
}
