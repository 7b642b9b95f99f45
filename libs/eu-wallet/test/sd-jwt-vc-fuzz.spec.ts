import { verifySdJwtVcPresentation, WalletCheckError, issueSdJwtVc, createTestSigner, type TestSigner } from '@identity-broker/eu-wallet';
import { mulberry32 } from '../../../test/support/seeded-random.js';
import { AUDIENCE, NONCE, holderKeys, present } from './sd-jwt-holder.js';

/**
 * Malformed input of every size, from a seeded generator (a failure names its seed and case): whatever arrives, the
 * verifier answers with a WalletCheckError, never another error, and never accepts.
 */
describe('SD-JWT VC presentation: malformed input', () => {
  const now = new Date();
  let pid: TestSigner;
  let valid: string;
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~';
  const b64u = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

  beforeAll(async () => {
    pid = await createTestSigner({ rootName: 'Test PID Provider CA', signerName: 'Test PID Provider' });
    const holder = holderKeys();
    const credential = await issueSdJwtVc({ signer: pid, holderKey: holder.publicKey });
    valid = await present(credential, { paths: ['$.given_name', '$.nationalities[0]'], holderKey: holder.privateKey });
  });

  const refusal = async (presentation: unknown, label: string) => {
    try {
      await verifySdJwtVcPresentation({
        presentation: presentation as string,
        trustAnchors: [pid.root],
        acceptedVcts: ['urn:eudi:pid:1'],
        nonce: NONCE,
        audience: AUDIENCE,
        now,
      });
    } catch (e) {
      if (e instanceof WalletCheckError) return e.code;
      throw new Error(`${label}: ${String(e)}`);
    }
    throw new Error(`${label}: accepted`);
  };

  it('accepts the unmutated presentation (the base of the mutations)', async () => {
    await expect(
      verifySdJwtVcPresentation({ presentation: valid, trustAnchors: [pid.root], acceptedVcts: ['urn:eudi:pid:1'], nonce: NONCE, audience: AUDIENCE, now }),
    ).resolves.toBeDefined();
  });

  it('refuses random strings of every size, up to past the 64 KiB bound', async () => {
    const random = mulberry32(9901);
    for (let i = 0; i < 200; i++) {
      const length = Math.floor(random() ** 3 * 70_000);
      // Separators rarer than the base64url characters, so that some strings get past the split into the JSON.
      const bytes = new Uint8Array(length);
      for (let c = 0; c < length; c++) bytes[c] = ALPHABET.charCodeAt(Math.floor(random() ** 1.3 * ALPHABET.length));
      const text = Buffer.from(bytes).toString('latin1');
      await refusal(text, `seed 9901 case ${i}`);
    }
    for (const odd of [undefined, null, 42, {}, [], '', '~', '~~', '.', '..~', 'a.b.c~', `${'A'.repeat(70_000)}~`])
      await refusal(odd, JSON.stringify(odd)?.slice(0, 20) ?? 'undefined');
  });

  it('refuses mutations of a valid presentation: flipped, cut, duplicated and inserted characters', async () => {
    const random = mulberry32(7519);
    const codes = new Set<string>();
    for (let i = 0; i < 400; i++) {
      let text = valid;
      const edits = 1 + Math.floor(random() * 4);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(random() * text.length);
        const kind = Math.floor(random() * 4);
        const char = ALPHABET[Math.floor(random() * ALPHABET.length)];
        if (kind === 0) text = text.slice(0, at) + char + text.slice(at + 1);
        else if (kind === 1) text = text.slice(0, at);
        else if (kind === 2) text = text.slice(0, at) + text.slice(at, at + Math.floor(random() * 200)) + text.slice(at);
        else text = text.slice(0, at) + char + text.slice(at);
      }
      if (text === valid) continue;
      codes.add(await refusal(text, `seed 7519 case ${i}`));
    }
    expect(codes.size).toBeGreaterThan(2);
  });

  it('refuses structurally odd JSON in every position: header, payload, disclosure, KB-JWT', async () => {
    const random = mulberry32(7515);
    const values = [
      null,
      0,
      -1,
      1e308,
      '',
      'x',
      [],
      {},
      [[]],
      { _sd: 'x' },
      { _sd: [1] },
      { '...': 1 },
      ['s'],
      ['s', 'k'],
      ['s', 1, 2],
      ['s', '__proto__', {}],
      { __proto__: 1 },
      { typ: 'dc+sd-jwt', alg: 'ES256', x5c: 'x' },
      { typ: 'dc+sd-jwt', alg: 'ES256', x5c: ['!!'] },
      { typ: 'dc+sd-jwt', alg: 'ES256', x5c: ['AAAA'] },
    ];
    const [jwt, ...rest] = valid.split('~');
    const kb = rest.pop()!;
    const [h, p, s] = jwt.split('.');
    for (let i = 0; i < 300; i++) {
      const pick = () => values[Math.floor(random() * values.length)];
      const where = Math.floor(random() * 5);
      let text: string;
      if (where === 0) text = [`${b64u(pick())}.${p}.${s}`, ...rest, kb].join('~');
      else if (where === 1) text = [`${h}.${b64u(pick())}.${s}`, ...rest, kb].join('~');
      else if (where === 2) text = [jwt, ...rest, b64u(pick()), kb].join('~');
      else if (where === 3) text = [jwt, ...rest, `${b64u(pick())}.${b64u(pick())}.${s}`].join('~');
      else text = [jwt, ...rest, b64u('not json {')].join('~') + `~${kb}`;
      await refusal(text, `seed 7515 case ${i}`);
    }
  });
});
