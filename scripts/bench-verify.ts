/**
 * Server time of one full document verification and where it goes, plus the service's memory with the face
 * models loaded. Starts the built service (`npm run bench:verify` builds first) on a fresh PostgreSQL database
 * and runs sessions one at a time through the SDK's runVerification with a specimen phone. The app API answers
 * each step with a Server-Timing header (total and the steps measured inside it: pa, aa, ca for the chip; the
 * face steps the service reports: wall-clock phases face-decode, face-analysis, face-judge, and the
 * worker threads' busy time per sub-step, worker-*, summed over frames that ran in parallel); the bench reads it
 * through the SDK's fetch, so it does not depend on the order or the content of the steps (the liveness
 * protocol may change underneath).
 *
 * The phone waits BENCH_CAPTURE_MS (default 2000) before sending the frames, as a person taking them does.
 * `--oversized N` of the sessions (default a fifth, spread evenly) send their selfie as a 12 MP JPEG (4000x3000), which the service
 * decodes to 1000x750 and which grows the SSD thread's WASM heap past what phone frames do; at the end the bench
 * reads the service's /metrics for the face worker threads it replaced (FACE_WORKER_RECYCLE_MB).
 *
 *   npm run bench:verify -- --sessions 100        (20 of them oversized; --oversized 0 for none)
 *   BENCH_SESSIONS=20 (--sessions)   BENCH_OVERSIZED=a fifth (--oversized)   BENCH_CAPTURE_MS=2000
 *   FACE_WORKERS, FACE_WORKER_RECYCLE_MB, FACE_WORKER_IDLE_RECYCLE_SECONDS (the service's; after the run the bench
 *   waits that long and 15 s more, and reads the RSS again)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runVerification, VerifierClient } from '@identity-broker/verifier-sdk';
import { TestBrowser } from '../test/support/test-browser.js';
import { upscaledJpeg } from '../test/support/oversized-images.js';
import { specimenPhone } from './test-app/specimen-phone.js';
import { cpuMs, percentiles, rssMiB, startService, withDatabase } from './bench/service.js';
import { parseServerTiming, StepTable } from './bench/server-timing.js';

const { values: args } = parseArgs({ options: { sessions: { type: 'string' }, oversized: { type: 'string' } } });
const sessions = Number(args.sessions ?? process.env.BENCH_SESSIONS ?? 20);
const oversizedSessions = Math.min(sessions, Number(args.oversized ?? process.env.BENCH_OVERSIZED ?? Math.round(sessions / 5)));
/** Whether measured session `i` (1-based) sends an oversized selfie: every (sessions / oversized)-th one. */
const isOversized = (i: number) =>
  oversizedSessions > 0 && i >= 1 && Math.floor((i * oversizedSessions) / sessions) > Math.floor(((i - 1) * oversizedSessions) / sessions);
const metricsToken = randomBytes(24).toString('base64url');
const captureMs = Number(process.env.BENCH_CAPTURE_MS ?? 2000);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const faces = 'test/fixtures/verifier-faces';
const read = (name: string) => new Uint8Array(readFileSync(join(faces, name)));
/** the app API steps the bench reports, by the end of their path */
const STEPS: Record<string, string> = { '/session/chip': 'chip upload', '/session/liveness-challenge': 'liveness challenge', '/session/face': 'face upload' };

await withDatabase(async (databaseUrl) => {
  const service = await startService(databaseUrl, { env: { METRICS_TOKEN: metricsToken } });
  try {
    const idle = rssMiB(service.child.pid);
    const m = await service.createMerchant({ name: 'bench verifier', redirect_uris: ['http://localhost:8080/callback'], eid_schemes: ['document-verifier'] });
    const doc = await new VerifierClient(`${service.base}/app/v1`).requestSpecimen(read('sheldon-document.jpg'), 'nor-adult');
    const dir = mkdtempSync(join(tmpdir(), 'bench-doc-'));
    // The specimen's files (its Active Authentication key among them) go with the benchmark.
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'sod.bin'), Buffer.from(doc.sod, 'base64'));
    for (const [n, b64] of Object.entries(doc.data_groups)) writeFileSync(join(dir, `dg${n}.bin`), Buffer.from(b64, 'base64'));
    writeFileSync(join(dir, 'aa-key.der'), Buffer.from(doc.active_authentication_key, 'base64'));
    const specimen = specimenPhone({ documentDir: dir, selfie: read('sheldon-center.png'), right: read('sheldon-right.png'), left: read('sheldon-left.png') });
    // A person needs a few seconds to take the selfie and its four movements; the service uses them to make the
    // chip photo's template. BENCH_CAPTURE_MS=0 sends the frames at once (the template is then awaited).
    const phone: typeof specimen = { ...specimen, captureFrames: async (...args) => (await pause(captureMs), specimen.captureFrames(...args)) };
    // The same person's selfie as a phone camera's 12 MP JPEG; the burst frames stay the phone's own.
    const bigSelfie = await upscaledJpeg(read('sheldon-center.png'));
    const oversizedPhone: typeof specimen = {
      ...phone,
      captureFrames: async (...args) => (await phone.captureFrames(...args)).map((frame) => (frame.step === 0 ? { ...frame, image: bigSelfie } : frame)),
    };

    // While verifications run, another client keeps asking /health: its latency shows whether the face
    // work stalls the event loop that serves every other request.
    const healthMs: number[] = [];
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const t = performance.now();
        // A failed probe ends probing: the service is gone, and the error that stopped the bench is the one to read.
        if (
          (await fetch(`${service.base}/health`).then(
            (r) => r.text(),
            () => undefined,
          )) === undefined
        )
          break;
        healthMs.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();

    const table = new StepTable();
    const totalMs: number[] = [];
    const outcomes = new Map<string, number>();
    const oversizedMs: number[] = [];
    let session: StepTable | undefined; // this session's steps (a capture retry adds to them)
    // The SDK's fetch, recording each verifying step's Server-Timing (and the client's round trip as a cross-check)
    const recordingFetch: typeof fetch = async (input, init) => {
      const t = performance.now();
      const res = await fetch(input, init);
      const step = Object.entries(STEPS).find(([suffix]) => String(input).endsWith(suffix))?.[1];
      if (step && session) session.add(step, performance.now() - t, parseServerTiming(res.headers.get('server-timing')));
      return res;
    };
    let cpuStart = 0;
    for (let i = 0; i <= sessions; i++) {
      if (i === 1) cpuStart = cpuMs(service.child.pid);
      const query = new URLSearchParams({
        client_id: m.client_id,
        response_type: 'code',
        scope: 'openid',
        redirect_uri: 'http://localhost:8080/callback',
        state: 's',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGcSjw2cfE',
        code_challenge_method: 'S256',
      });
      const browser = new TestBrowser(service.base);
      const page = await browser.follow(await browser.get(`${service.base}/its/index.html?${query}`));
      const link = /<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(page.html)![1].replace(/&amp;/g, '&');
      const { client, qrToken } = VerifierClient.fromLink(link, recordingFetch);
      session = new StepTable();
      let result: string;
      try {
        result = (await runVerification(client, qrToken, isOversized(i) ? oversizedPhone : phone)).authentication_result ?? 'no result';
      } catch (e) {
        result = `error: ${(e as Error).message.slice(0, 120)}`;
      }
      if (i === 0) continue; // the first run loads the face models
      outcomes.set(result, (outcomes.get(result) ?? 0) + 1);
      table.merge(session);
      totalMs.push(session.serverTotal());
      if (isOversized(i)) oversizedMs.push(session.serverTotal());
    }
    // The service's CPU (every thread) per verification: steadier than latency on a shared machine, and it shows
    // what parallel frames cost in total, not only how long the request waited. Includes the /health probes.
    const cpuPerSession = (cpuMs(service.child.pid) - cpuStart) / sessions;
    probing = false;
    await prober;

    const recycles = await faceWorkerRecycles(service.base);
    const rssAfter = rssMiB(service.child.pid);
    const mainAfter = await memoryBreakdown(service.base);
    // Then idle: grown threads are replaced after FACE_WORKER_IDLE_RECYCLE_SECONDS (30) and load their models again.
    const idleSeconds = Number(process.env.FACE_WORKER_IDLE_RECYCLE_SECONDS ?? 30);
    let rssIdle: string | undefined;
    // The RSS every 5 s of the wait: when it falls (the last session's recycled thread settling, the idle recycling).
    const rssCurve: string[] = [];
    if (idleSeconds > 0) {
      for (let s = 5; s <= idleSeconds + 15; s += 5) {
        await pause(5000);
        rssCurve.push(`${s} s ${rssMiB(service.child.pid)}`);
      }
      rssIdle = `${rssMiB(service.child.pid)} MiB RSS; ${await memoryBreakdown(service.base)}`;
    }
    console.log(
      `document verification, ${sessions} sessions (${oversizedSessions} with a 12 MP JPEG selfie) after one warm-up through the SDK's runVerification; outcomes: ${[...outcomes].map(([k, v]) => `${v} ${k}`).join(', ')}`,
    );
    console.log('server time per step from the Server-Timing header (client round trip in the last columns):');
    for (const line of table.lines()) console.log(`  ${line}`);
    const all = percentiles(totalMs.length ? totalMs : [NaN]);
    console.log(`  full verification (server time of the steps above): median ${all.median} ms, p95 ${all.p95} ms, p99 ${all.p99} ms`);
    if (oversizedMs.length) console.log(`  of which with a 12 MP selfie: median ${percentiles(oversizedMs).median} ms`);
    console.log(`  service CPU (all threads) per verification: ${cpuPerSession.toFixed(0)} ms; face worker threads: ${process.env.FACE_WORKERS ?? 'default'}`);
    const health = percentiles(healthMs.length ? healthMs : [NaN]);
    console.log(
      `  /health meanwhile (${healthMs.length} requests): median ${health.median} ms, p99 ${health.p99} ms, max ${Math.max(...healthMs).toFixed(1)} ms`,
    );
    console.log(
      `  service memory: ${idle} MiB RSS before, ${rssAfter} MiB RSS right after (peak ${rssMiB(service.child.pid, 'VmHWM')} MiB), face models loaded; ${mainAfter}`,
    );
    if (rssIdle !== undefined)
      console.log(
        `  service memory after ${idleSeconds + 15} s idle (grown threads replaced after ${idleSeconds} s): ${rssIdle} (MiB after the last session: ${rssCurve.join(', ')})`,
      );
    console.log(
      `  face worker threads replaced (broker_face_worker_recycles_total): ${recycles} right after, ${await faceWorkerRecycles(service.base)} after idle; FACE_WORKER_RECYCLE_MB ${process.env.FACE_WORKER_RECYCLE_MB ?? 'default'}`,
    );
  } finally {
    service.child.kill();
  }
});

/** The service's broker_face_worker_recycles_total series from /metrics, as `reason=n` pairs. */
async function faceWorkerRecycles(base: string): Promise<string> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  if (!res.ok) return `/metrics answered ${res.status}`;
  const series = [...(await res.text()).matchAll(/^broker_face_worker_recycles_total\{reason="(\w+)"\} (\d+)$/gm)];
  return series.map(([, reason, n]) => `${reason}=${n}`).join(', ') || 'no series';
}

/** Where the RSS is, from /metrics: the main thread's V8 heap (committed, used) and external memory, each face thread's own memory. */
async function memoryBreakdown(base: string): Promise<string> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  if (!res.ok) return `/metrics answered ${res.status}`;
  const text = await res.text();
  const mib = (name: string) => {
    const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
    return m ? (Number(m[1]) / 2 ** 20).toFixed(0) : '?';
  };
  const spaces = [...text.matchAll(/^nodejs_heap_space_size_total_bytes\{space="(\w+)"\} (\S+)$/gm)]
    .filter(([, , b]) => Number(b) >= 2 ** 20)
    .map(([, space, b]) => `${space} ${(Number(b) / 2 ** 20).toFixed(0)}`);
  const threads = [...text.matchAll(/^broker_face_worker_memory_bytes\{thread="(\d+)"\} (\S+)$/gm)].map(
    ([, t, b]) => `${t}: ${(Number(b) / 2 ** 20).toFixed(0)}`,
  );
  return `main thread V8 heap ${mib('nodejs_heap_size_total_bytes')} MiB (${mib('nodejs_heap_size_used_bytes')} used; ${spaces.join(', ')}), external ${mib('nodejs_external_memory_bytes')} MiB; face threads' own MiB ${threads.join(', ') || 'not reported'}`;
}
