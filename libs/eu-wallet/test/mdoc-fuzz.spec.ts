import { MAX_DEVICE_RESPONSE_BYTES, verifyMdocPresentation, WalletCheckError } from '@identity-broker/eu-wallet';
import { mdocWorld, PID, transcriptFor, type MdocWorld } from '../../../test/support/mdoc-fixtures.js';
import { mulberry32 } from '../../../test/support/seeded-random.js';

/**
 * Hostile bytes where vp_token carries a DeviceResponse: whatever comes in, the verifier answers with a
 * WalletCheckError (never another exception type) or, for an edit that touches nothing signed, a verified result.
 * Seeded, so a failing case reproduces from its seed and index.
 */
describe('mdoc presentation: malformed and hostile input', () => {
  let world: MdocWorld;
  let valid: Uint8Array;
  beforeAll(async () => {
    world = await mdocWorld();
    valid = await world.present({ mdoc: await world.issue() });
  });

  const verify = (deviceResponse: string | Uint8Array) =>
    verifyMdocPresentation({
      deviceResponse,
      sessionTranscript: transcriptFor(),
      trustAnchors: [world.iaca.root],
      expectedDocType: PID.docType,
      now: new Date(),
    });

  /** The outcome of one input: 'ok', a check code, or the unexpected error's name (which fails the test). */
  const outcome = (deviceResponse: string | Uint8Array): Promise<string> =>
    verify(deviceResponse).then(
      () => 'ok',
      (e: unknown) => (e instanceof WalletCheckError ? e.code : `unexpected ${(e as Error)?.name}: ${(e as Error)?.message}`),
    );

  const CODES = new Set(['ok', 'malformed', 'invalid_signature', 'untrusted_issuer', 'expired', 'wrong_binding', 'unexpected_credential']);

  async function expectOnlyCheckCodes(inputs: (string | Uint8Array)[]): Promise<Map<string, number>> {
    const seen = new Map<string, number>();
    for (const [index, input] of inputs.entries()) {
      const result = await outcome(input);
      if (!CODES.has(result)) throw new Error(`input ${index}: ${result}`);
      seen.set(result, (seen.get(result) ?? 0) + 1);
    }
    return seen;
  }

  it('refuses seeded random bytes of many sizes, up to and over the bound, as malformed', async () => {
    const random = mulberry32(0x6d646f63);
    const sizes = [0, 1, 2, 3, 8, 64, 512, 4096, 65_536, MAX_DEVICE_RESPONSE_BYTES, MAX_DEVICE_RESPONSE_BYTES + 1, 4 * MAX_DEVICE_RESPONSE_BYTES];
    const inputs = sizes.flatMap((size) =>
      Array.from({ length: size > 65_536 ? 2 : 20 }, (_, i) => {
        const words = new Uint32Array(Math.ceil(size / 4)).map(() => Math.floor(random() * 2 ** 32));
        const bytes = new Uint8Array(words.buffer, 0, size);
        // Half of them start as a CBOR map, to get past the first byte.
        if (i % 2 === 0 && size > 0) bytes[0] = 0xa3;
        return bytes;
      }),
    );
    const seen = await expectOnlyCheckCodes(inputs);
    expect([...seen.keys()]).toEqual(['malformed']);
  });

  it('refuses every truncation of a valid response', async () => {
    const cuts = Array.from({ length: valid.length }, (_, n) => valid.subarray(0, n));
    const seen = await expectOnlyCheckCodes(cuts);
    expect([...seen.keys()]).toEqual(['malformed']);
  });

  it('answers seeded bit flips of a valid response with a check code (or a result, if nothing signed changed)', async () => {
    const random = mulberry32(0x666c6970);
    const flipped = Array.from({ length: 1500 }, () => {
      const copy = new Uint8Array(valid);
      for (let n = 1 + Math.floor(random() * 3); n > 0; n--) copy[Math.floor(random() * copy.length)] ^= 1 << Math.floor(random() * 8);
      return copy;
    });
    const seen = await expectOnlyCheckCodes(flipped);
    expect(seen.get('malformed')).toBeGreaterThan(0);
    expect(seen.get('invalid_signature')).toBeGreaterThan(0);
  });

  it('refuses hostile CBOR the decoder would act on: bignums, shared references, typed arrays, Error/RegExp, deep nesting', async () => {
    const big = MAX_DEVICE_RESPONSE_BYTES - 16;
    const header = (major: number, length: number) => [(major << 5) | 26, length >>> 24, (length >>> 16) & 255, (length >>> 8) & 255, length & 255];
    const hostile = [
      // A bignum (tag 2) filling the bound: cbor-x's decode of it is quadratic.
      new Uint8Array([0xc2, ...header(2, big), ...new Uint8Array(big).fill(0xff)]),
      // Shared reference (tag 28) to itself (tag 29): a cycle.
      new Uint8Array([0xd8, 0x1c, 0x81, 0xd8, 0x1d, 0x00]),
      // Tag 27 (object by constructor name): RegExp.
      new Uint8Array([0xd8, 0x1b, 0x82, 0x66, ...Buffer.from('RegExp'), 0x61, 0x61]),
      // Typed array (tag 64) and set (tag 258).
      new Uint8Array([0xd8, 0x40, 0x42, 0x01, 0x02]),
      new Uint8Array([0xd9, 0x01, 0x02, 0x80]),
      // An array claiming 2^32-1 entries, a map claiming 2^31, a byte string longer than the input.
      new Uint8Array([0x9a, 0xff, 0xff, 0xff, 0xff, 0x00]),
      new Uint8Array([0xba, 0x80, 0x00, 0x00, 0x00, 0x00]),
      new Uint8Array([0x5a, 0x00, 0x10, 0x00, 0x00, 0x00]),
      // Arrays nested to the bound, indefinite ones, and a tag-24 item holding deep nesting.
      new Uint8Array(MAX_DEVICE_RESPONSE_BYTES).fill(0x81),
      new Uint8Array(MAX_DEVICE_RESPONSE_BYTES).fill(0x9f),
      new Uint8Array([0xd8, 0x18, 0x58, 200, ...new Uint8Array(200).fill(0x81)]),
      // Tag 24 around text, a tdate around a number, a lone break, reserved additional information.
      new Uint8Array([0xd8, 0x18, 0x61, 0x61]),
      new Uint8Array([0xc0, 0x01]),
      new Uint8Array([0xff]),
      new Uint8Array([0x1c]),
      // Trailing bytes after a valid response.
      new Uint8Array([...valid, 0x00]),
    ];
    const seen = await expectOnlyCheckCodes(hostile);
    expect([...seen.keys()]).toEqual(['malformed']);
  });

  it('refuses vp_token text that is not base64url, or longer than the bound, before decoding it', async () => {
    const seen = await expectOnlyCheckCodes([
      '',
      'not base64url!',
      `${Buffer.from(valid).toString('base64')}==`,
      'A'.repeat(Math.ceil((MAX_DEVICE_RESPONSE_BYTES * 4) / 3) + 4),
    ]);
    expect([...seen.keys()]).toEqual(['malformed']);
  });
});
