/**
 * Step durations of `verifyDocument` for whoever subscribes to the diagnostics channel (the service turns them
 * into a Server-Timing header). Node's diagnostics_channel keeps the library framework-free, and nothing is
 * measured or published while no one listens. Messages carry a step name and milliseconds only.
 */
import { channel } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';

export const TIMING_CHANNEL = 'icao9303:timing';

export interface StepTiming {
  /** 'pa' (passive authentication, 9303-11 §5.1), 'aa' (Active Authentication §6.1), 'ca' (Chip Authentication §6.2) */
  step: 'pa' | 'aa' | 'ca';
  ms: number;
}

const timings = channel(TIMING_CHANNEL);

export function timed<T>(step: StepTiming['step'], fn: () => T): T {
  if (!timings.hasSubscribers) return fn();
  const start = performance.now();
  try {
    return fn();
  } finally {
    timings.publish({ step, ms: performance.now() - start } satisfies StepTiming);
  }
}
