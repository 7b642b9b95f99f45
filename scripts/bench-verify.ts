/**
 * Server time of one full document verification (passive authentication, Active Authentication, face
 * match, liveness) and the service's memory with the face models loaded. Starts the built service
 * (`npm run bench:verify` builds first) on a fresh PostgreSQL database and drives sessions with the SDK
 * and a specimen chip, one at a time, timing the chip and face uploads (the two requests that verify).
 *
 *   BENCH_SESSIONS=20
 */
import { readFileSync } from 'node:fs';
import { VerifierClient } from '../libs/verifier-sdk/src/index.js';
import { TestBrowser } from '../test/support/test-browser.js';
import { mirror } from './test-app/specimen-phone.js';
import { specimenPhone } from './test-app/specimen-phone.js';
import { percentiles, rssMiB, startService, withDatabase } from './bench/service.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const sessions = Number(process.env.BENCH_SESSIONS ?? 20);
const faces = 'test/fixtures/verifier-faces';
const read = (name: string) => new Uint8Array(readFileSync(join(faces, name)));

await withDatabase(async (databaseUrl) => {
  const service = await startService(databaseUrl);
  try {
    const idle = rssMiB(service.child.pid);
    const m = await service.createMerchant({ name: 'bench verifier', redirect_uris: ['http://localhost:8080/callback'], eid_schemes: ['document-verifier'] });
    const doc = await new VerifierClient(`${service.base}/app/v1`).requestSpecimen(read('howard-document.jpg'), 'nor-adult');
    const dir = mkdtempSync(join(tmpdir(), 'bench-doc-'));
    writeFileSync(join(dir, 'sod.bin'), Buffer.from(doc.sod, 'base64'));
    for (const [n, b64] of Object.entries(doc.data_groups)) writeFileSync(join(dir, `dg${n}.bin`), Buffer.from(b64, 'base64'));
    writeFileSync(join(dir, 'aa-key.der'), Buffer.from(doc.active_authentication_key, 'base64'));
    const phone = specimenPhone({ documentDir: dir, selfie: read('howard-center.png'), right: read('howard-right.png'), left: await mirror(read('howard-right.png')) });

    // While verifications run, another client keeps asking /health: its latency shows whether the face
    // work stalls the event loop that serves every other request.
    const healthMs: number[] = [];
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const t = performance.now();
        await (await fetch(`${service.base}/health`)).text();
        healthMs.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const chipMs: number[] = [];
    const faceMs: number[] = [];
    const totalMs: number[] = [];
    let passes = 0;
    for (let i = 0; i <= sessions; i++) {
      const query = new URLSearchParams({ client_id: m.client_id, response_type: 'code', scope: 'openid', redirect_uri: 'http://localhost:8080/callback', state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGcSjw2cfE', code_challenge_method: 'S256' });
      const browser = new TestBrowser(service.base);
      const page = await browser.follow(await browser.get(`${service.base}/its/index.html?${query}`));
      const link = /<a href="([^"]+)" data-action="open-app">/.exec(page.html)![1].replace(/&amp;/g, '&');
      const { client, qrToken } = VerifierClient.fromLink(link);
      await client.open(qrToken);
      const chip = await phone.readChip(await client.activeAuthChallenge());
      let t0 = performance.now();
      await client.uploadChip(chip);
      const chipTime = performance.now() - t0;
      const liveness = await client.livenessChallenge();
      const frames = await phone.captureFrames(liveness.sequence);
      t0 = performance.now();
      const outcome = await client.uploadFace(liveness.challenge_id, frames);
      const faceTime = performance.now() - t0;
      if (i === 0) continue; // the first run loads the face models
      if (outcome.authentication_result === 'pass') passes++;
      chipMs.push(chipTime);
      faceMs.push(faceTime);
      totalMs.push(chipTime + faceTime);
    }
    probing = false;
    await prober;
    console.log(`document verification, ${sessions} sessions after one warm-up (${passes} passed), 3 liveness frames + DG2 photo each`);
    console.log(`  chip upload (PA + AA):            median ${percentiles(chipMs).median} ms`);
    console.log(`  face upload (4 faces, liveness):  median ${percentiles(faceMs).median} ms`);
    console.log(`  full verification (server time):  median ${percentiles(totalMs).median} ms, p99 ${percentiles(totalMs).p99} ms`);
    console.log(`  /health meanwhile (${healthMs.length} requests): median ${percentiles(healthMs).median} ms, p99 ${percentiles(healthMs).p99} ms, max ${Math.max(...healthMs).toFixed(1)} ms`);
    console.log(`  service memory: ${idle} MiB RSS before, ${rssMiB(service.child.pid)} MiB RSS with the face models loaded`);
  } finally {
    service.child.kill();
  }
});
