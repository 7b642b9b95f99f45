/** Test-vector access: everything is read from test/fixtures/icao inside the repository. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIXTURES = join(process.cwd(), 'test', 'fixtures', 'icao');

export function fixture(path: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURES, path)));
}

export function fixtureJson<T = any>(path: string): T {
  return JSON.parse(readFileSync(join(FIXTURES, path), 'utf8')) as T;
}

export function flipBit(b: Uint8Array, index: number, bit = 0): Uint8Array {
  const out = b.slice();
  out[index] ^= 1 << bit;
  return out;
}
