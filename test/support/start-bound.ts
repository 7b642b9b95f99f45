import { availableParallelism, loadavg } from 'node:os';

/**
 * How long a test may wait for the service it starts (TEST_APP_START_SECONDS, 150 s): under the suite's own bound
 * (jest's testTimeout, 180 s), so that a slow start fails with this message rather than a bare hook timeout. On an
 * idle machine the start takes 1-3 s (docs/development.md); a machine busy with other work can make it many times
 * slower, which must not fail the suite.
 */
const boundSeconds = Number(process.env.TEST_APP_START_SECONDS ?? 150);

export type MarkPhase = (name: string) => void;

/**
 * Runs a start made of named phases (`mark` begins the next one). Past the bound it fails, naming each phase's time,
 * the one still running and the machine's load, so that a slow start says why it is slow.
 */
export async function withinStartBound<T>(start: (mark: MarkPhase) => Promise<T>): Promise<T> {
  const phases: [string, number][] = [];
  let current = 'preparing';
  let since = performance.now();
  const mark: MarkPhase = (name) => {
    phases.push([current, performance.now() - since]);
    [current, since] = [name, performance.now()];
  };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const done = phases.map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`);
      const running = `${current} ${((performance.now() - since) / 1000).toFixed(1)} s and not done`;
      const load = `load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`;
      reject(new Error(`the service did not start within ${boundSeconds} s: ${[...done, running].join(', ')}; ${load}`));
    }, boundSeconds * 1000);
  });
  try {
    return await Promise.race([start(mark), late]);
  } finally {
    clearTimeout(timer);
  }
}
