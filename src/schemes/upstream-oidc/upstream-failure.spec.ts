import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { outboundRequest } from '../../common/outbound/outbound-fetch.js';
import { upstreamFailure } from './upstream-failure.js';
import { UpstreamOidcClient } from './upstream-oidc.client.js';

const CUSTOMER_TEST = { allowLoopback: true };

/** What a failed upstream call becomes: unavailable (network, TLS, time-out, 5xx) or refused, with its code and host. */
describe('upstream failure', () => {
  let server: Server;
  let base = '';
  let host = '';

  beforeAll(async () => {
    // Answers nothing at all: a hanging upstream.
    server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.3', resolve));
    host = `127.0.0.3:${(server.address() as AddressInfo).port}`;
    base = `http://${host}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function deadPort(): Promise<string> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.3', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return `http://127.0.0.3:${port}`;
  }

  it('discovery at a closed port, through openid-client ("something went wrong"): unavailable, ECONNREFUSED and the host', async () => {
    const issuer = await deadPort();
    const client = new UpstreamOidcClient({
      issuer,
      clientId: 'broker',
      clientSecret: 'a-secret',
      tokenEndpointAuthMethod: 'client_secret_basic',
      allowHttp: true,
      policy: CUSTOMER_TEST,
    });
    const err = await client.configuration().catch((e: unknown) => e);
    expect(upstreamFailure(err)).toMatchObject({ unavailable: true, code: 'ECONNREFUSED', host: new URL(issuer).host });
    expect(JSON.stringify(upstreamFailure(err))).not.toContain('a-secret');
  });

  it('an upstream that does not answer in time: ETIMEDOUT', async () => {
    const err = await outboundRequest('GET', new URL(`${base}/token`), CUSTOMER_TEST, { maxBytes: 1000, timeoutMs: 200, headers: {} }).catch((e: unknown) => e);
    expect(upstreamFailure(err)).toMatchObject({ unavailable: true, code: 'ETIMEDOUT', host });
  });

  it('TLS spoken to something that is not TLS: unavailable with the TLS code', async () => {
    const err = await outboundRequest('GET', new URL(`https://${host}/`), CUSTOMER_TEST, { maxBytes: 1000, timeoutMs: 2000, headers: {} }).catch(
      (e: unknown) => e,
    );
    expect(upstreamFailure(err)).toMatchObject({ unavailable: true, code: 'EPROTO', host });
  });

  it('a 5xx answer is unavailable, an OAuth error answer is refused with its error code', () => {
    expect(
      upstreamFailure(
        Object.assign(new Error('server responded with an error in the response body'), {
          code: 'OAUTH_RESPONSE_BODY_ERROR',
          status: 502,
          error: 'server_error',
        }),
      ),
    ).toMatchObject({ unavailable: true, code: 'http_502' });
    expect(upstreamFailure(new Error('something went wrong', { cause: new Response('down', { status: 503 }) }))).toMatchObject({
      unavailable: true,
      code: 'http_503',
    });
    expect(upstreamFailure(Object.assign(new Error('x'), { code: 'OAUTH_RESPONSE_BODY_ERROR', status: 400, error: 'invalid_grant' }))).toMatchObject({
      unavailable: false,
      code: 'invalid_grant',
    });
    const challenge = Object.assign(new Error('server responded with a challenge in the WWW-Authenticate HTTP Header'), {
      code: 'OAUTH_WWW_AUTHENTICATE_CHALLENGE',
      status: 401,
      cause: [{ scheme: 'basic', parameters: { error: 'invalid_client' } }],
    });
    expect(upstreamFailure(challenge)).toMatchObject({ unavailable: false, code: 'invalid_client' });
    expect(upstreamFailure(Object.assign(new Error('timed out'), { code: 'OAUTH_TIMEOUT' }))).toMatchObject({ unavailable: true, code: 'OAUTH_TIMEOUT' });
  });
});
