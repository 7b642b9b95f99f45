import type { Tensor } from '@tensorflow/tfjs';

/**
 * Applies `steps` in turn to `input`, freeing each intermediate result once the next exists, and `input` itself once
 * the first step has used it when the caller hands it over (`freeInput`).
 */
export function chain<T extends Tensor>(input: T, freeInput: boolean, ...steps: ((t: T) => T)[]): T {
  let current = input;
  for (const step of steps) {
    const next = step(current);
    if (current !== input || freeInput) current.dispose();
    current = next;
  }
  return current;
}
