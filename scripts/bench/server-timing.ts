/** Reading Server-Timing headers (W3C Server Timing) and tabulating them per step for bench:verify. */
import { percentiles } from './service.js';

/** `total;dur=412.3, pa;dur=3.1` → Map { total → 412.3, pa → 3.1 }; unknown parameters are ignored. */
export function parseServerTiming(header: string | null): Map<string, number> {
  const out = new Map<string, number>();
  for (const metric of (header ?? '').split(',')) {
    const [name, ...params] = metric.trim().split(';');
    const dur = params.map((p) => /^\s*dur=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    if (name && dur) out.set(name.trim(), (out.get(name.trim()) ?? 0) + Number(dur));
  }
  return out;
}

interface StepSamples {
  wall: number[];
  /** the header's total; absent when the service sent no Server-Timing */
  total: number[];
  parts: Map<string, number[]>;
}

/**
 * Steps in the order first seen. A session's table sums repeated requests of a step (a capture retry is part of
 * the verification); the overall table keeps one sample per session and step.
 */
export class StepTable {
  private readonly steps = new Map<string, StepSamples>();

  add(step: string, wallMs: number, timing: Map<string, number>): void {
    const s = this.samples(step);
    sumInto(s.wall, wallMs);
    if (timing.has('total')) sumInto(s.total, timing.get('total')!);
    for (const [name, ms] of timing) if (name !== 'total') sumInto(this.part(s, name), ms);
  }

  merge(session: StepTable): void {
    for (const [step, s] of session.steps) {
      const mine = this.samples(step);
      mine.wall.push(...s.wall);
      mine.total.push(...s.total);
      for (const [name, v] of s.parts) this.part(mine, name).push(...v);
      // what the measured steps do not cover: storage, sealing, session checks, request parsing. Worker time
      // (worker-*) is spent in parallel threads inside the wall-clock steps, so it covers nothing of the total.
      const covered = [...s.parts].filter(([name]) => !isWorkerTime(name)).reduce((a, [, v]) => a + (v[0] ?? 0), 0);
      if (s.total.length && s.parts.size) this.part(mine, 'other').push(s.total[0] - covered);
    }
  }

  /** this session's server time over its steps (the client's round trip where a step sent no header) */
  serverTotal(): number {
    return [...this.steps.values()].reduce((a, s) => a + (s.total[0] ?? s.wall[0] ?? 0), 0);
  }

  lines(): string[] {
    const fmt = (v: number[]) => {
      const p = percentiles(v);
      return `median ${p.median.padStart(7)} ms  p99 ${p.p99.padStart(7)} ms`;
    };
    const out: string[] = [];
    for (const [step, s] of this.steps) {
      out.push(`${step.padEnd(28)} ${s.total.length ? fmt(s.total) : '(no Server-Timing header)'.padEnd(32)}   round trip ${fmt(s.wall)}`);
      if (s.total.length && !s.parts.size) out.push(`  ${'(no steps reported inside)'.padEnd(26)}`);
      for (const [name, v] of s.parts) if (!isWorkerTime(name)) out.push(`  ${name.padEnd(26)} ${fmt(v)}`);
      const worker = [...s.parts].filter(([name]) => isWorkerTime(name));
      if (worker.length) out.push('  face worker threads, busy time summed over the frames (in parallel: not part of the total)');
      for (const [name, v] of worker) out.push(`    ${name.padEnd(24)} ${fmt(v)}`);
    }
    return out;
  }

  private samples(step: string): StepSamples {
    let s = this.steps.get(step);
    if (!s) this.steps.set(step, (s = { wall: [], total: [], parts: new Map() }));
    return s;
  }

  private part(s: StepSamples, name: string): number[] {
    let v = s.parts.get(name);
    if (!v) s.parts.set(name, (v = []));
    return v;
  }
}

/**
 * Server-Timing entries named worker-* are time spent inside the face worker threads (face-verification.service.ts),
 * wall time per call: on an idle machine that is CPU time, under load it includes waiting for a core.
 */
function isWorkerTime(name: string): boolean {
  return name.startsWith('worker-');
}

function sumInto(v: number[], ms: number): void {
  if (v.length) v[0] += ms;
  else v.push(ms);
}
