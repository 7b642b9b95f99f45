import { Inject, Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../common/errors/app-error.js';
import { hasBody } from '../../common/http/replayable-body.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';

/** Seconds a refused client is asked to wait: the requests it holds end with their bodies or their timeout. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Bounds the requests of one client address whose body has not all arrived (HTTP_UNFINISHED_BODIES_PER_CLIENT).
 * Each holds a connection for as long as its client trickles the body, up to HTTP_REQUEST_TIMEOUT_SECONDS: one client
 * held a thousand connections for 61 s each. Over the bound a request is refused at once with 429, unread, and its
 * connection closed. The address is Express's req.ip, which follows TRUST_PROXY as the rate limits do. Counted in
 * this process: the bound protects each instance's connections.
 *
 * A request counts from its headers until its body has arrived (req.complete, whether or not anyone has read it yet),
 * its end was read, or its response closed (answered, aborted, timed out); one whose body arrived is dropped from the
 * count when the bound is reached, so small bodies that arrived with their headers never make a client wait.
 */
@Injectable()
export class UnfinishedBodies {
  private readonly byClient = new Map<string, Set<Request>>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  middleware() {
    const bound = this.config.ops.perClient.unfinishedBodies;
    return (req: Request, res: Response, next: NextFunction): void => {
      if (bound === 0 || !hasBody(req) || req.complete) return next();
      const client = req.ip ?? '';
      const unfinished = this.byClient.get(client) ?? new Set<Request>();
      if (unfinished.size >= bound) for (const other of unfinished) if (other.complete) unfinished.delete(other);
      if (unfinished.size >= bound) return next(this.refusal());
      unfinished.add(req);
      this.byClient.set(client, unfinished);
      const release = () => {
        unfinished.delete(req);
        if (unfinished.size === 0 && this.byClient.get(client) === unfinished) this.byClient.delete(client);
      };
      req.once('end', release);
      res.once('close', release);
      next();
    };
  }

  private refusal(): AppError {
    const refusal = new AppError(
      429,
      'temporarily_unavailable',
      `too many requests with unfinished bodies from this address; retry after ${RETRY_AFTER_SECONDS} seconds`,
    );
    refusal.headers = { 'Retry-After': String(RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store' };
    return refusal;
  }
}
