import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { NotFoundError } from '../common/errors/app-error.js';
import { renderError } from '../common/errors/error-renderer.js';
import { isProviderRequest } from '../oidc/provider/routes.js';

/**
 * The engine's routes (authorization, token, JWKS, discovery, userinfo, CIBA, logout) skip Express's router and
 * Nest: the HTTP server hands them straight to `edge`, the same middleware instances that Express runs in the
 * same order for every other request (request id, access log, security headers, character refusal, rate
 * limits, the SAML front door, then the engine). Walking Express's layers cost an engine request about as much
 * CPU as the engine's own JWKS answer; nothing behind them (body parsers, validation, Nest's routes) serves
 * these paths. What the middleware reads of a request (req.path, req.ip with TRUST_PROXY, res.status) stays
 * Express's: the request and response get Express's prototypes, as Express itself gives them.
 */
export function serveEngineRoutesFirst(app: NestExpressApplication, edge: RequestHandler[]): void {
  const express = app.getHttpAdapter().getInstance() as Express;
  const server = app.getHttpServer() as Server;
  const lightPath = (req: IncomingMessage, res: ServerResponse): void => {
    const path = pathOf(req.url);
    if (!isProviderRequest(req.method ?? '', path)) return void express(req, res);
    runEdge(express, edge, req as Request, res as Response);
  };
  // In place of Express among the server's request listeners, in its position (the HTTP observer listens too).
  const listeners = server.listeners('request') as ((...args: unknown[]) => void)[];
  if (!listeners.includes(express as never)) throw new Error('the HTTP server does not serve the Express application');
  server.removeAllListeners('request');
  for (const listener of listeners) server.on('request', listener === (express as never) ? lightPath : listener);
}

/** The path of a request target, without its query (what Express's req.path gives, decoded no further). */
function pathOf(url = '/'): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

function runEdge(express: Express, edge: RequestHandler[], req: Request, res: Response): void {
  // What Express's app.handle and router do first: the circular references, its prototypes, locals, originalUrl.
  req.res = res;
  res.req = req;
  Object.setPrototypeOf(req, express.request);
  Object.setPrototypeOf(res, express.response);
  res.locals ??= Object.create(null) as Response['locals'];
  req.originalUrl ??= req.url;
  req.baseUrl = '';
  let index = 0;
  const next: NextFunction = (err?: unknown) => {
    if (err !== undefined && err !== 'route' && err !== 'router') return renderError(req, res, err);
    const handler = edge[index++];
    // The engine answers every request isProviderRequest names; one left unanswered is not found, as in Nest.
    if (!handler) return renderError(req, res, new NotFoundError(pathOf(req.originalUrl)));
    try {
      // As Express 5 does: a middleware's rejected promise is its error.
      const result = handler(req, res, next) as unknown;
      if (result instanceof Promise) result.catch((e: unknown) => renderError(req, res, e));
    } catch (e) {
      renderError(req, res, e);
    }
  };
  next();
}
