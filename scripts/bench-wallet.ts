/**
 * EU wallet presentations: verified per second and server CPU per presentation, at the response_uri of the built
 * service (`npm run bench:wallet` builds first) on a fresh PostgreSQL database, for each credential the scheme takes,
 * beside its anchor: the same SD-JWT VC check (key binding, cached status list) in this process, with the library
 * alone (no HTTP, no JWE, no database). Wallet requests are read and answers encrypted before the clock starts; only
 * the posting of the answers is measured.
 *
 *   BENCH_PRESENTATIONS=200 BENCH_CONCURRENCY=4
 */
import { createPublicKey } from 'node:crypto';
import {
  createStatusList,
  issueSdJwtVc,
  SPECIMEN_PID_CLAIMS,
  StatusListChecker,
  verifySdJwtVcPresentation,
  createTestSigner,
} from '@identity-broker/eu-wallet';
import { TestBrowser } from '../test/support/test-browser.js';
import { cpuMs, percentiles, startService, withDatabase } from './bench/service.js';
import { encryptResponse } from './test-wallet/encrypt-response.js';
import { walletFromService } from './test-wallet/issuer-client.js';
import { newHolderKey } from './test-wallet/wallet.js';
import { presentSdJwt } from './test-wallet/sd-jwt-presentation.js';

const count = Number(process.env.BENCH_PRESENTATIONS ?? 200);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const redirectUri = 'http://localhost:8080/callback';

/** The library alone: one SD-JWT VC PID presentation with key binding, its status from a cached list, `count` times. */
async function anchor(): Promise<{ perSecond: string; cpuMs: string }> {
  const pid = await createTestSigner({ rootName: 'Bench PID CA', signerName: 'Bench PID Provider' });
  const holder = newHolderKey();
  const uri = 'https://status.example/1';
  const credential = await issueSdJwtVc({ signer: pid, holderKey: createPublicKey(holder.privateKey), claims: SPECIMEN_PID_CLAIMS, status: { uri, idx: 3 } });
  const list = createStatusList({ signer: pid, uri, bits: 2, values: new Array<number>(1024).fill(0), ttl: 3600 });
  const statusLists = new StatusListChecker({ fetchStatusList: async () => list, trustAnchors: [pid.root] });
  const aud = 'x509_hash:bench';
  const presentations = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      presentSdJwt(credential, {
        paths: [['family_name'], ['given_name'], ['birthdate'], ['nationalities', null]],
        holderKey: holder.privateKey,
        nonce: `bench-nonce-${i}-0123456789abcdef`,
        aud,
      }),
    ),
  );
  const verify = (presentation: string, i: number) =>
    verifySdJwtVcPresentation({
      presentation,
      trustAnchors: [pid.root],
      acceptedVcts: ['urn:eudi:pid:1'],
      nonce: `bench-nonce-${i}-0123456789abcdef`,
      audience: aud,
      now: new Date(),
    });
  const first = await verify(presentations[0], 0);
  await statusLists.check(first.status!, first.signer); // the list cached, as it is after the first presentation
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (const [i, presentation] of presentations.entries()) {
    const verified = await verify(presentation, i);
    await statusLists.check(verified.status!, verified.signer);
  }
  const used = process.cpuUsage(cpu);
  return { perSecond: (count / ((performance.now() - started) / 1000)).toFixed(0), cpuMs: ((used.user + used.system) / 1000 / count).toFixed(2) };
}

await withDatabase(async (databaseUrl) => {
  const service = await startService(databaseUrl);
  try {
    const m = await service.createMerchant({ name: 'bench wallet', redirect_uris: [redirectUri], eid_schemes: ['eu-wallet'], scope: 'openid profile' });
    const wallet = await walletFromService(service.base);
    console.log(`EU wallet presentations at the response_uri: ${count} per credential, ${concurrency} concurrent wallets`);
    console.log('credential   presentations/s   server CPU ms/presentation   latency p50 / p99 ms');
    for (const use of ['pid_sd_jwt', 'pid_mdoc', 'mdl']) {
      // Each answer needs its own login (one transaction each); read and encrypted before the clock starts.
      const answers: { responseUri: string; body: string }[] = [];
      for (let i = 0; i < count; i++) {
        const browser = new TestBrowser(service.base);
        const query = new URLSearchParams({
          client_id: m.client_id,
          response_type: 'code',
          scope: 'openid profile',
          redirect_uri: redirectUri,
          state: 's',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
        });
        const page = await browser.follow(await browser.get(`${service.base}/its/index.html?${query}`));
        // The QR code's link (also offered to copy): the cross-device transaction, answered without a browser.
        const link = /<input id="app-link"[^>]* value="([^"]+)"/.exec(page.html)![1].replace(/&amp;/g, '&');
        const request = await wallet.read(link);
        const response = await encryptResponse(request, { vp_token: await wallet.presentations(request, use), state: request.claims.state });
        answers.push({ responseUri: request.claims.response_uri, body: new URLSearchParams({ response }).toString() });
      }
      const latencies: number[] = [];
      let next = 0;
      const cpuBefore = cpuMs(service.child.pid);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < answers.length) {
            const { responseUri, body } = answers[next++];
            const t0 = performance.now();
            const res = await fetch(responseUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
            const text = await res.text();
            if (res.status !== 200) throw new Error(`${use}: the response_uri answered ${res.status}: ${text}`);
            latencies.push(performance.now() - t0);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const { p50, p99 } = percentiles(latencies);
      console.log(
        `${use.padEnd(12)} ${(count / seconds).toFixed(0).padStart(15)}   ${((cpuMs(service.child.pid) - cpuBefore) / count).toFixed(2).padStart(26)}   ${p50} / ${p99}`,
      );
    }
    const alone = await anchor();
    console.log(`anchor: the SD-JWT VC check alone (library, this process): ${alone.perSecond}/s, ${alone.cpuMs} ms CPU each`);
  } finally {
    service.child.kill();
  }
});
