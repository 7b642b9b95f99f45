import type * as client from 'openid-client';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { sessionAtFaceStep, verifierMerchant } from '../support/verifier-flow.js';

const METRICS_TOKEN = 'recycle-test-metrics-token-0123456789abcdef';

/**
 * Face worker threads replaced when their own memory passes FACE_WORKER_RECYCLE_MB. The bound here (1 MiB) is below
 * any thread's, so every thread is replaced after every call it answers (never after loading its models): the
 * harshest case for the pool, which must lose and fail no call. Each replacement is counted at /metrics, and the
 * verifications all complete as they would without. The service runs in a process of its own, as in
 * verifier-face-memory.
 */
describe('verifier face worker recycling', () => {
  let t: ServiceProcess;
  let merchant: client.Configuration;
  let documentDir: string;

  beforeAll(async () => {
    t = await startServiceProcess({ env: { FACE_WORKER_RECYCLE_MB: '1', FACE_WORKERS: '2', METRICS_TOKEN } });
    ({ merchant, documentDir } = await verifierMerchant(t, 'Face recycling'));
  }, 300_000);
  afterAll(() => t?.stop(), 180_000);

  const verify = async (): Promise<string> => {
    const { sdk, phone } = await sessionAtFaceStep(t.baseUrl, merchant, documentDir);
    const challenge = await sdk.livenessChallenge();
    const outcome = await sdk.uploadFace(challenge.challenge_id, await phone.captureFrames(challenge));
    return `${outcome.state} ${outcome.authentication_result}`;
  };

  const recycles = async (reason: string): Promise<number> => {
    const res = await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    const line = new RegExp(`^broker_face_worker_recycles_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec(await res.text());
    expect(line).not.toBeNull();
    return Number(line![1]);
  };

  it('replaces a thread over the bound after its call, counts it at /metrics, and every verification around it passes', async () => {
    expect(await recycles('memory')).toBe(0);
    const answers = [await verify(), await verify()];
    const replaced = await recycles('memory');
    expect(replaced).toBeGreaterThanOrEqual(1);
    // After the replacements: fresh threads load their models and take the next verification's calls.
    answers.push(await verify());
    expect(answers).toEqual(['completed pass', 'completed pass', 'completed pass']);
    expect(await recycles('memory')).toBeGreaterThan(replaced);
    // Replaced on purpose, none ended on its own.
    expect(await recycles('exit')).toBe(0);
  }, 600_000);

  it("reports each thread's own memory at /metrics, a replaced thread's as its fresh one's", async () => {
    const threadMemory = async (): Promise<Record<string, number>> => {
      const res = await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const series = [...(await res.text()).matchAll(/^broker_face_worker_memory_bytes\{thread="(\d+)"\} (\S+)$/gm)];
      return Object.fromEntries(series.map(([, thread, bytes]) => [thread, Number(bytes)]));
    };
    // Every thread was replaced after its last call: each reports once its fresh models are loaded (tens of MiB).
    const deadline = Date.now() + 120_000;
    let memory = await threadMemory();
    while (!(memory['0'] > 20 * 2 ** 20 && memory['1'] > 20 * 2 ** 20) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      memory = await threadMemory();
    }
    expect(Object.keys(memory).sort()).toEqual(['0', '1']);
    for (const bytes of Object.values(memory)) expect(bytes).toBeGreaterThan(20 * 2 ** 20);
    // A fresh thread's models and heaps, not a grown one's (FACE_WORKER_RECYCLE_MB's documented sizes).
    for (const bytes of Object.values(memory)) expect(bytes).toBeLessThan(448 * 2 ** 20);
  }, 180_000);
});
