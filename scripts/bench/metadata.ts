/**
 * What every relying party fetches: the JWKS and the discovery document, as GETs with N concurrent clients,
 * their rate and the server's CPU per request (bench:cluster with BENCH_ONLY=jwks, the service and the bare
 * engine side by side).
 */
import { rate, type Rate } from './flows.js';
import { cpuMs } from './service.js';

/** The rate, and the server CPU per request in µs (Rate.cpuMs rounds to 10 µs, too coarse here). */
export type MetadataRate = Rate & { cpuUs: number };

export interface MetadataFigures {
  jwks: MetadataRate;
  discovery: MetadataRate;
}

async function measured(count: number, concurrency: number, pids: (number | undefined)[], url: string): Promise<MetadataRate> {
  const cpu = () => pids.reduce<number>((sum, pid) => sum + cpuMs(pid), 0);
  const before = cpu();
  const r = await rate(count, concurrency, pids, () => get(url));
  return { ...r, cpuUs: ((cpu() - before) * 1000) / count };
}

async function get(url: string): Promise<void> {
  const res = await fetch(url);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
}

/** `paths` relative to `base`; a warm-up of its own first (not counted), then each path `count` times. */
export async function measureMetadata(
  base: string,
  paths: { jwks: string; discovery: string },
  pids: (number | undefined)[],
  count: number,
  concurrency: number,
): Promise<MetadataFigures> {
  for (const path of [paths.jwks, paths.discovery]) await rate(Math.min(count, 500), concurrency, pids, () => get(`${base}${path}`));
  return {
    jwks: await measured(count, concurrency, pids, `${base}${paths.jwks}`),
    discovery: await measured(count, concurrency, pids, `${base}${paths.discovery}`),
  };
}
