import {
  startChipAuthentication,
  verifyDocument,
  answerChipAuthentication,
  createSpecimenAuthority,
  encodeDg15,
  generateSpecimenKeyPair,
  issueSpecimenDocument,
  signActiveAuthChallenge,
  type SpecimenDocument,
} from '@identity-broker/icao9303';
import { judgeCloneDetection } from './clone-detection.js';

/** Clone detection judged from the SOD's list of data groups (ICAO 9303-11 §6.1, §6.2). */
describe('judgeCloneDetection', () => {
  const challenge = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
  let withAa: SpecimenDocument;
  let withoutAa: SpecimenDocument;
  let caOnly: SpecimenDocument;
  let otherCa: SpecimenDocument;

  beforeAll(async () => {
    const authority = await createSpecimenAuthority();
    withAa = await issueSpecimenDocument(authority, { activeAuthentication: 'EC' });
    withoutAa = await issueSpecimenDocument(authority, { activeAuthentication: false });
    caOnly = await issueSpecimenDocument(authority, { activeAuthentication: false, chipAuthentication: true });
    otherCa = await issueSpecimenDocument(authority, { activeAuthentication: false, chipAuthentication: true });
  });

  /** The chip `answering` replies to a server challenge made for `challengeDg14`; `doc` is what is uploaded. */
  const judgeCa = (doc: SpecimenDocument, dataGroups: Map<number, Uint8Array>, challengeDg14: Uint8Array, answering: SpecimenDocument) => {
    const c = startChipAuthentication(challengeDg14);
    const responseApdu = answerChipAuthentication(answering.chipAuthKey!, c.terminalPublicKey, c.protectedCommand);
    const result = verifyDocument({ sod: doc.sod, dataGroups, trustStore: doc.authority.trustStore(), chipAuth: { state: c.secretState, responseApdu } });
    return judgeCloneDetection(result, dataGroups);
  };

  const judge = (doc: SpecimenDocument, dataGroups: Map<number, Uint8Array>, signature?: Uint8Array) => {
    const result = verifyDocument({
      sod: doc.sod,
      dataGroups,
      trustStore: doc.authority.trustStore(),
      activeAuth: signature && { challenge, signature },
    });
    return judgeCloneDetection(result, dataGroups);
  };
  const without = (doc: SpecimenDocument, ...dgs: number[]) => new Map([...doc.dataGroups].filter(([n]) => !dgs.includes(n)));

  it('passes a chip that answers Active Authentication with the key its SOD lists', () => {
    expect(judge(withAa, withAa.dataGroups, signActiveAuthChallenge(withAa, challenge))).toMatchObject({
      method: 'active-authentication',
      required: true,
      passed: true,
      failed: false,
    });
  });

  it('requires the proof when the SOD lists DG15, even if the app leaves DG14 and DG15 out', () => {
    const judged = judge(withAa, without(withAa, 14, 15));
    expect(judged).toMatchObject({ method: 'none', required: true, passed: false, failed: true });
    expect(judged.problems.join(' ')).toContain('DG15 is listed in the SOD but was not presented');
  });

  it('does not count a proof made with a substituted DG15 (the attacker key, not the signed one)', async () => {
    const attacker = await generateSpecimenKeyPair('EC');
    const forged = new Map(withAa.dataGroups).set(15, encodeDg15(new Uint8Array(attacker.publicKey.export({ format: 'der', type: 'spki' }))));
    const signature = signActiveAuthChallenge({ activeAuthKey: { type: 'EC', ...attacker } }, challenge);
    expect(judge(withAa, forged, signature)).toMatchObject({ passed: false, failed: true });
  });

  it('passes a chip with only a DG14 CA key that answers the server challenge (9303-11 §6.2)', () => {
    expect(judgeCa(caOnly, caOnly.dataGroups, caOnly.dataGroups.get(14)!, caOnly)).toMatchObject({
      method: 'chip-authentication',
      required: true,
      passed: true,
      failed: false,
    });
  });

  it('requires Chip Authentication when the SOD lists DG14 with a CA key: no answer fails', () => {
    expect(judge(caOnly, caOnly.dataGroups)).toMatchObject({ required: true, passed: false, failed: true });
  });

  it('does not count an answer from another chip, nor one made with a substituted DG14', () => {
    // another genuine chip answers a challenge for its own DG14, uploaded with this document's DG14
    expect(judgeCa(caOnly, caOnly.dataGroups, otherCa.dataGroups.get(14)!, otherCa)).toMatchObject({ passed: false, failed: true });
    // the other chip's DG14 swapped into this document: the answer holds, but the SOD does not sign that key
    const swapped = new Map(caOnly.dataGroups).set(14, otherCa.dataGroups.get(14)!);
    expect(judgeCa(caOnly, swapped, otherCa.dataGroups.get(14)!, otherCa)).toMatchObject({ passed: false, failed: true });
  });

  it('needs no proof when the SOD lists neither DG14 nor DG15, and then never claims one', () => {
    expect(judge(withoutAa, withoutAa.dataGroups)).toEqual({ method: 'none', required: false, passed: false, failed: false, problems: [] });
  });
});
