/**
 * A fetch over node:https for clients that must present a TLS client certificate (or trust the test proxy's own
 * server certificate), as a bank's relying party configures its HTTP client. Requests go over one kept-alive
 * connection (maxSockets 1), so the token request and the calls with its token share the same TLS session.
 */
import { Agent, request } from 'node:https';

export interface TlsClientOptions {
  /** The proxy's server certificate (PEM), trusted as its own CA. */
  ca: string;
  /** The client's key and certificate (PEM); none: no certificate is presented. */
  key?: string;
  cert?: string;
}

export interface TlsFetch {
  fetch: typeof fetch;
  close(): void;
}

export function tlsFetch(options: TlsClientOptions): TlsFetch {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: options.ca, key: options.key, cert: options.cert, servername: 'localhost' });
  const send = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
    const body = init.body === undefined || init.body === null ? undefined : Buffer.from(await new Response(init.body).arrayBuffer());
    return new Promise<Response>((resolve, reject) => {
      const req = request(url, { method: init.method ?? 'GET', headers: Object.fromEntries(headers), agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const answer = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2) answer.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
          const status = res.statusCode ?? 0;
          const content = [204, 304].includes(status) ? null : Buffer.concat(chunks);
          resolve(new Response(content, { status, headers: answer }));
        });
        res.once('error', reject);
      });
      req.once('error', reject);
      req.end(body);
    });
  };
  return { fetch: send as typeof fetch, close: () => agent.destroy() };
}
