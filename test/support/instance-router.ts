import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One address in front of several instances (as a load balancer without sticky sessions), whose routing
 * the test decides: every request to one named instance (as after a health check took the others out),
 * or each request to the next one in turn. A request to an instance that is gone answers 502, as a real
 * reverse proxy would. It records which instance answered each request so a test can show that a flow
 * really crossed instances.
 */
export interface InstanceRouter {
  url: string;
  /** Instance name -> port; filled once the instances run (their BASE_URL is this router's url). */
  instances: Record<string, number>;
  /** Every request to this instance, or 'alternate' for each to the next in turn. */
  route: string;
  served: { instance: string; method: string; path: string }[];
  close(): Promise<void>;
}

export async function startInstanceRouter(): Promise<InstanceRouter> {
  let turn = 0;
  const router: InstanceRouter = { url: '', instances: {}, route: 'alternate', served: [], close: async () => undefined };
  const pick = (): string => {
    if (router.route !== 'alternate') return router.route;
    const names = Object.keys(router.instances);
    return names[turn++ % names.length];
  };
  const server: Server = createServer((incoming, outgoing) => {
    const instance = pick();
    router.served.push({ instance, method: incoming.method ?? '', path: (incoming.url ?? '').split('?')[0] });
    const upstream = request(
      { host: '127.0.0.1', port: router.instances[instance], method: incoming.method, path: incoming.url, headers: incoming.headers },
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
  router.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  router.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return router;
}
