/**
 * Server-Timing response header (W3C Server Timing) on the app API's verifying steps: the handler's total and
 * the steps measured inside it, e.g. `total;dur=412.3, pa;dur=3.1, aa;dur=0.4`. It lets the bench and support
 * see where a slow verification spent its time from the response alone. Only step names and durations: no
 * personal data, no identifiers. Steps reach it through an AsyncLocalStorage scoped to the request, from the
 * ICAO library's diagnostics channel (passive authentication, AA, CA) and from `timedStep` in the services.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { Observable } from 'rxjs';
import { TIMING_CHANNEL, type StepTiming } from '@identity-broker/icao9303';

type Steps = Array<{ step: string; ms: number }>;
const requestSteps = new AsyncLocalStorage<Steps>();

subscribe(TIMING_CHANNEL, (message) => recordStep((message as StepTiming).step, (message as StepTiming).ms));

/** Adds a step to the current request's header (nothing outside a timed request). Names are fixed tokens. */
export function recordStep(step: string, ms: number): void {
  requestSteps.getStore()?.push({ step, ms });
}

/** Runs `fn` and records its duration under `step`. */
export async function timedStep<T>(step: string, fn: () => Promise<T> | T): Promise<T> {
  const start = performance.now();
  try {
    return await fn();
  } finally {
    recordStep(step, performance.now() - start);
  }
}

/** `total` first, then the steps in the order they ended; a step run twice (two frames) is summed. */
export function formatServerTiming(totalMs: number, steps: Steps): string {
  const sums = new Map<string, number>();
  for (const { step, ms } of steps) sums.set(step, (sums.get(step) ?? 0) + ms);
  return [['total', totalMs] as const, ...sums].map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`).join(', ');
}

@Injectable()
export class ServerTimingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const res = context.switchToHttp().getResponse<Response>();
    return new Observable((outer) => {
      const steps: Steps = [];
      const start = performance.now();
      // set before Nest writes the answer (value or error), so error responses carry it too
      const header = () => {
        if (!res.headersSent) res.setHeader('Server-Timing', formatServerTiming(performance.now() - start, steps));
      };
      const inner = requestSteps.run(steps, () =>
        next.handle().subscribe({
          next: (value) => {
            header();
            outer.next(value);
          },
          error: (e) => {
            header();
            outer.error(e);
          },
          complete: () => outer.complete(),
        }),
      );
      return () => inner.unsubscribe();
    });
  }
}
