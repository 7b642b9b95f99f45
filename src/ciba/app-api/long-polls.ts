import { createParamDecorator, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';

/** Who would hold a long poll: the client address (req.ip, which follows TRUST_PROXY) and when its request ends. */
export interface LongPoller {
  address: string;
  /** Aborted when the response closes: answered, or the client gone (it went away, or its connection timed out). */
  gone: AbortSignal;
}

/** The request's LongPoller. */
export const Poller = createParamDecorator((_: unknown, ctx: ExecutionContext): LongPoller => {
  const http = ctx.switchToHttp();
  const gone = new AbortController();
  http.getResponse<Response>().once('close', () => gone.abort());
  return { address: http.getRequest<Request>().ip ?? '', gone: gone.signal };
});

/**
 * The long polls each client address holds in this process, at most LONG_POLLS_PER_CLIENT (0: no bound): a held
 * poll keeps a connection and queries the database twice a second for up to 25 s, and one address once held a
 * thousand of them.
 */
@Injectable()
export class LongPolls {
  private readonly held = new Map<string, number>();
  private readonly bound: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.bound = config.ops.perClient.longPolls;
  }

  /** A place for `poller`, given back by the function answered or when its request ends; undefined when its address has none left. */
  hold(poller: LongPoller): (() => void) | undefined {
    const count = this.held.get(poller.address) ?? 0;
    if (this.bound !== 0 && count >= this.bound) return undefined;
    this.held.set(poller.address, count + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (this.held.get(poller.address) ?? 1) - 1;
      if (left > 0) this.held.set(poller.address, left);
      else this.held.delete(poller.address);
    };
    poller.gone.addEventListener('abort', release, { once: true });
    return release;
  }
}
