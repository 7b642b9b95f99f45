import * as client from 'openid-client';
import { phoneReplay } from '@identity-broker/face/calibration';
import { decodeImage } from '@identity-broker/face';
import { VerifierClient } from '@identity-broker/verifier-sdk';
import { specimenPhone } from '../../scripts/test-app/specimen-phone.js';
import { encodeJpeg } from '../../scripts/test-app/synthesise-frames.js';
import { VerificationRecordsService } from '../../src/schemes/document-verifier/records/verification-records.service.js';
import { PRESENTATION_RULES } from '../../src/schemes/document-verifier/verification/presentation-rules.js';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover } from '../support/oidc-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { REDIRECT_URI, SHELDON, specimenDocumentDir, type Person } from '../support/verifier-flow.js';

/**
 * The passive layer against the running app, with the real models (no stubs). The attack frames are the holder's own
 * fixture frames replayed on a SYNTHETIC phone screen (libs/face/src/calibration/synthetic-attacks.ts: lower
 * resolution, moiré, grey blacks, a dark bezel). Measured with the models on 2026-11-23: replayed, the frame facing the
 * camera scores 0.44 and the burst frames made from the three images (blends, rotations, shifts) 0.43-0.82; genuine,
 * 0.83 and 0.57-0.91. The head movements are the genuine ones, so the active challenge alone would mostly pass: the
 * passive score is what refuses the session, every time.
 */
describe('presentation attacks (passive scores with the active challenge)', () => {
  let t: TestApp;
  let config: client.Configuration;
  let sheldonDoc: string;

  /** A session at its face step; the phone shows `person`. */
  const verify = async (person: Person) => {
    const browser = new TestBrowser(t.baseUrl);
    const page = await browser.follow(await browser.get((await authorizationRequest(config)).url.toString()));
    const link = /<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(page.html)![1].replace(/&amp;/g, '&');
    const { client: sdk, qrToken } = VerifierClient.fromLink(link);
    await sdk.open(qrToken);
    const phone = specimenPhone({ documentDir: sheldonDoc, selfie: person.center, left: person.left, right: person.right });
    expect(await sdk.uploadChip(await phone.readChip(await sdk.activeAuthChallenge()))).toMatchObject({ next: 'face' });
    const c = await sdk.livenessChallenge();
    return sdk.uploadFace(c.challenge_id, await phone.captureFrames(c));
  };
  const lastRecordFailures = async () => {
    const [row] = await t.dataSource.query("SELECT record_id FROM verification_sessions WHERE state = 'completed' ORDER BY updated_at DESC LIMIT 1");
    return (await t.app.get(VerificationRecordsService).get(row.record_id))!.failures;
  };

  beforeAll(async () => {
    t = await startTestApp();
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Passive', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    sheldonDoc = await specimenDocumentDir(t.baseUrl);
  }, 120_000);
  afterAll(() => t?.close(), 180_000);

  it('passes the genuine holder (the passive scores of his frames are well above the thresholds)', async () => {
    expect(await verify(SHELDON)).toMatchObject({ state: 'completed', authentication_result: 'pass', result_explanation: [] });
  }, 240_000);

  it('refuses the holder replayed on a phone screen, on the passive score alone: liveness fails, not a retry', async () => {
    const replayed = async (image: Uint8Array) => encodeJpeg(phoneReplay(await decodeImage(image)));
    const person: Person = { center: await replayed(SHELDON.center), left: await replayed(SHELDON.left), right: await replayed(SHELDON.right) };
    const outcome = await verify(person);
    expect(outcome).toMatchObject({ state: 'completed', authentication_result: 'fail' });
    expect(outcome.result_explanation).toContain('STATUS_BAD_LIVENESS');
    const failures = await lastRecordFailures();
    const passive = failures.filter((f) => f.startsWith('passive presentation score'));
    expect(passive).toHaveLength(1);
    // The frame facing the camera is the same in every run (the challenge only draws the bursts): replayed, it scores
    // about 0.44, under refuseBelow, whatever the random bursts score (their median reached 0.60 in some runs).
    expect(passive[0]).toMatch(/of the frame facing the camera, below /);
    expect(Number(/score (\d\.\d+)/.exec(passive[0])![1])).toBeLessThan(PRESENTATION_RULES.refuseBelow);
    // Nothing but the movements' reach may add to it: the replay shows one face, moving, in new frames each time. (The
    // screen's blur can cost a turn a degree: the burst detector read the replayed left turn at 11.6° in one run.)
    expect(failures.filter((f) => /^(still picture|another face|the centre frame)/.test(f))).toEqual([]);
  }, 240_000);
});
