import express, { type RequestHandler } from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { serveEngineRoutesFirst } from './engine-light-path.js';
import { addLogSink } from '../common/logging/logger.js';

/** The light path's own rules, on a bare Express application (the e2e test covers it inside the service). */
describe("the engine routes' light path", () => {
  let server: Server;
  let base: string;
  const seen: string[] = [];

  const start = async (edge: RequestHandler[]) => {
    const app = express();
    app.use((req, res) => {
      seen.push(`express ${req.url}`);
      res.status(404).json({ error: 'not_found' });
    });
    server = createServer(app);
    const nest = { getHttpAdapter: () => ({ getInstance: () => app }), getHttpServer: () => server } as unknown as NestExpressApplication;
    serveEngineRoutesFirst(nest, edge);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  afterEach(async () => {
    seen.length = 0;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("answers a middleware's rejected promise with the error object, as Express would, and keeps serving", async () => {
    await start([
      async () => {
        throw new Error('boom');
      },
    ]);
    const lines: string[] = [];
    const stop = addLogSink((line) => lines.push(line), { capture: true });
    const res = await fetch(`${base}/oidc/jwks`).finally(stop);
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['unhandled error']);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: 'server_error' });
    expect((await fetch(`${base}/health/live`)).status).toBe(404);
    expect(seen).toEqual(['express /health/live']);
  });

  it("runs the edge in order with Express's request helpers, and an unanswered engine request is not found", async () => {
    await start([
      (req, _res, next) => {
        seen.push(`first ${req.path} ${req.method}`);
        next();
      },
      (req, _res, next) => {
        seen.push(`second ${typeof req.is}`);
        next();
      },
    ]);
    const res = await fetch(`${base}/oidc/jwks?x=1`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'not_found' });
    expect(seen).toEqual(['first /oidc/jwks GET', 'second function']);
  });
});
