import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reverse proxy of the test's own that sends every request to the one instance the test points it at,
 * as a load balancer does after its health check took a dead instance out. A request to an instance that
 * is gone answers 502, as a real reverse proxy would.
 */
export interface SwitchProxy {
  url: string;
  target: number;
  close(): Promise<void>;
}

export async function startSwitchProxy(initialTarget: number): Promise<SwitchProxy> {
  const proxy: SwitchProxy = { url: '', target: initialTarget, close: async () => undefined };
  const server: Server = createServer((incoming, outgoing) => {
    const upstream = request(
      { host: '127.0.0.1', port: proxy.target, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return proxy;
}
