import * as client from 'openid-client';
import type { WorkerFaceEngine } from '@identity-broker/face';
import { SecretBox } from '../../src/common/crypto/secret-box.js';
import { FACE_ENGINE } from '../../src/schemes/document-verifier/verification/face-engine.provider.js';
import { adminClient } from '../support/admin-client.js';
import { discover } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { HOWARD, REDIRECT_URI, sessionAtFaceStep, specimenDocumentDir } from '../support/verifier-flow.js';

/**
 * The chip photo's face template is made after the chip step, while the person takes the selfie, and kept sealed
 * in the session row for the face upload (document-face-templates.ts): the upload matches against the stored
 * template, on whichever instance it lands, and nothing of it outlives the session.
 */
describe('document face template made during the selfie', () => {
  let t: TestApp;
  let config: client.Configuration;
  let documentDir: string;

  const atFaceStep = async () => {
    const { sdk, phone, chip } = await sessionAtFaceStep(t.baseUrl, config, documentDir);
    expect(chip).toMatchObject({ next: 'face' });
    const [{ id }] = await t.dataSource.query("SELECT id FROM verification_sessions WHERE state = 'chip_received' ORDER BY updated_at DESC LIMIT 1");
    return { sdk, phone, id: id as string };
  };
  const storedTemplate = async (id: string): Promise<string | null> =>
    (await t.dataSource.query('SELECT document_face_sealed FROM verification_sessions WHERE id = $1', [id]))[0].document_face_sealed;
  const waitForTemplate = async (id: string): Promise<string> => {
    for (let i = 0; i < 300; i++) {
      const sealed = await storedTemplate(id);
      if (sealed) return sealed;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('no document face template stored within 30 s of the chip step');
  };

  /** Howard's face template, sealed for `context`, in place of session `id`'s. */
  const storeHowardsTemplate = async (id: string, context: string) => {
    const engine = t.app.get<WorkerFaceEngine>(FACE_ENGINE);
    const howard = await engine.analyseFrame(HOWARD.center, { descriptor: true, presentation: false });
    const sealed = t.app.get(SecretBox).encrypt(JSON.stringify({ engine: engine.name, embedding: [...howard.embedding!] }), context);
    await t.dataSource.query('UPDATE verification_sessions SET document_face_sealed = $1 WHERE id = $2', [sealed, id]);
  };

  beforeAll(async () => {
    t = await startTestApp();
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({
      name: 'Template',
      redirect_uris: [REDIRECT_URI],
      eid_schemes: ['document-verifier'],
    });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    documentDir = await specimenDocumentDir(t.baseUrl);
  });
  afterAll(() => t?.close(), 180_000);

  it('stores the template sealed after the chip step, matches against it, and clears it when the session completes', async () => {
    const { sdk, phone, id } = await atFaceStep();
    const sealed = await waitForTemplate(id);
    // Sealed (AES-256-GCM, bound to the session): no number of the embedding in clear.
    expect(sealed).not.toMatch(/embedding|\d\.\d{4}/);
    const opened = JSON.parse(t.app.get(SecretBox).decryptText(sealed, `verification-document-face:${id}`)) as { engine: string; embedding: number[] };
    expect(opened.embedding).toHaveLength(128);
    const challenge = await sdk.livenessChallenge();
    const outcome = await sdk.uploadFace(challenge.challenge_id, await phone.captureFrames(challenge));
    expect(outcome).toMatchObject({ state: 'completed', authentication_result: 'pass' });
    expect(outcome.facematch_level).toBeGreaterThanOrEqual(7);
    expect(await storedTemplate(id)).toBeNull();
  }, 240_000);

  it('matches the selfie against the stored template, not a fresh analysis of the chip photo (another instance computed it)', async () => {
    const { sdk, phone, id } = await atFaceStep();
    await waitForTemplate(id);
    // As if another instance had stored the template of another face: the upload must use what the row holds.
    await storeHowardsTemplate(id, `verification-document-face:${id}`);
    const challenge = await sdk.livenessChallenge();
    const outcome = await sdk.uploadFace(challenge.challenge_id, await phone.captureFrames(challenge));
    expect(outcome).toMatchObject({ state: 'completed', authentication_result: 'fail', facematch_level: 0 });
    expect(outcome.result_explanation).toContain('STATUS_BAD_FACEMATCH');
  }, 240_000);

  it('ignores a template that does not open for this session (sealed for another one) and analyses the chip photo instead', async () => {
    const { sdk, phone, id } = await atFaceStep();
    await waitForTemplate(id);
    await storeHowardsTemplate(id, 'verification-document-face:another-session');
    const challenge = await sdk.livenessChallenge();
    const outcome = await sdk.uploadFace(challenge.challenge_id, await phone.captureFrames(challenge));
    expect(outcome).toMatchObject({ state: 'completed', authentication_result: 'pass' });
  }, 240_000);

  it('clears the template when the session is cancelled', async () => {
    const { sdk, id } = await atFaceStep();
    await waitForTemplate(id);
    await sdk.cancel();
    expect(await storedTemplate(id)).toBeNull();
  }, 240_000);
});
