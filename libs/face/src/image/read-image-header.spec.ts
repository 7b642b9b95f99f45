import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { FaceError, readDecodableHeader, readImageHeader } from '@identity-broker/face';
import { readFrame } from './jpeg/jpeg-frame.js';
import { sofOffset, withFrameHeader, withIhdrBytes } from '../../../../test/support/crafted-headers.js';
import { encodeJ2k, wrapJp2 } from '../../test/helpers/encode-jpeg2000.js';
import { gradientImage } from '../../test/helpers/synthetic-images.js';

const fixture = (path: string) => new Uint8Array(readFileSync(join(import.meta.dirname, '../../../../test/fixtures', path)));
const PROGRESSIVE = fixture('jpeg/progressive-420.jpg');
const source = gradientImage(64, 48);
const BASELINE = new Uint8Array(jpeg.encode({ width: 64, height: 48, data: Buffer.alloc(64 * 48 * 4, 0x80) }, 90).data);
const RGBA_PNG = new Uint8Array(PNG.sync.write(Object.assign(new PNG({ width: 64, height: 48 }), { data: Buffer.alloc(64 * 48 * 4, 0x80) })));

/** The FaceError code and message an image's header gets from the face step's check, or 'accepted'. */
function judged(bytes: Uint8Array): string {
  try {
    readDecodableHeader(bytes);
    return 'accepted';
  } catch (e) {
    if (e instanceof FaceError) return `${e.code}: ${e.message}`;
    throw e;
  }
}

/** End of the first scan header: the bytes the JPEG header reader needs (T.81 §B.2.1). */
function headerEnd(bytes: Uint8Array): number {
  let at = 2;
  while (bytes[at + 1] !== 0xda) at += 2 + ((bytes[at + 2] << 8) | bytes[at + 3]);
  return at + 2 + ((bytes[at + 2] << 8) | bytes[at + 3]);
}

/** The JPEG with a segment of `marker` inserted before its frame header (or, with `replaceSof`, instead of it). */
function withSegment(bytes: Uint8Array, marker: number, body: number[], replaceSof = false): Uint8Array {
  const at = sofOffset(bytes);
  const segment = [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 255, ...body];
  const rest = replaceSof ? at + 2 + ((bytes[at + 2] << 8) | bytes[at + 3]) : at;
  return Uint8Array.from([...bytes.subarray(0, at), ...segment, ...bytes.subarray(rest)]);
}

describe('image headers read without decoding (ITU-T T.81 Annex B, PNG IHDR, JPEG 2000 SIZ)', () => {
  it('reads size, components, depth and the JPEG process of baseline, progressive, grey, PNG and JPEG 2000 images', async () => {
    expect(readImageHeader(BASELINE)).toEqual({
      format: 'jpeg',
      width: 64,
      height: 48,
      components: 3,
      bitDepth: 8,
      jpeg: { sof: 0xc0, hierarchical: false, mcuBlocks: 3 },
    });
    expect(readImageHeader(PROGRESSIVE)).toMatchObject({ format: 'jpeg', components: 3, bitDepth: 8, jpeg: { sof: 0xc2, mcuBlocks: 6 } }); // 4:2:0
    expect(judged(PROGRESSIVE)).toBe('accepted');
    // SOI, SOF0 (8-bit, 8x8, one component sampled 2x2), SOS of that component: the header, no tables or data.
    const grey = Uint8Array.from([0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, 0, 8, 0, 8, 1, 1, 0x22, 0, 0xff, 0xda, 0, 8, 1, 1, 0, 0, 63, 0]);
    expect(readImageHeader(grey)).toMatchObject({ components: 1, jpeg: { mcuBlocks: 1 } }); // one component is never interleaved (§A.2.2)
    expect(readImageHeader(RGBA_PNG)).toEqual({ format: 'png', width: 64, height: 48, components: 4, bitDepth: 8, interlaced: false });
    expect(readImageHeader(withIhdrBytes(RGBA_PNG, 8, [4, 3]))).toMatchObject({ components: 1, bitDepth: 4 }); // palette of 16 colours
    const j2k = await encodeJ2k(source);
    expect(readImageHeader(j2k)).toEqual({ format: 'j2k', width: 64, height: 48, components: 3, bitDepth: 8 });
    expect(readImageHeader(wrapJp2(j2k, 64, 48))).toMatchObject({ format: 'jp2', components: 3, bitDepth: 8 });
  });

  it('refuses a header cut short at every byte (BAD_IMAGE, never another error)', async () => {
    const j2k = await encodeJ2k(source);
    for (const [bytes, end] of [
      [BASELINE, headerEnd(BASELINE)],
      [PROGRESSIVE, headerEnd(PROGRESSIVE)],
      [RGBA_PNG, 33],
      [j2k, 51],
    ] as const) {
      for (let length = 0; length < end; length++) expect(judged(bytes.subarray(0, length))).toMatch(/^BAD_IMAGE: /);
      expect(judged(bytes.subarray(0, end))).toBe('accepted'); // the entropy-coded data is the decoder's to judge
    }
  });

  it('refuses malformed JPEG headers: no frame header, zero sizes, bad segments, components and sampling', () => {
    const sof = sofOffset(BASELINE);
    const cases: [Uint8Array, RegExp][] = [
      [
        Uint8Array.from([...BASELINE.subarray(0, sof), ...BASELINE.subarray(sof + 2 + ((BASELINE[sof + 2] << 8) | BASELINE[sof + 3]))]),
        /no frame header \(SOF\)/,
      ],
      [withFrameHeader(BASELINE, { height: 0 }), /declares no pixels \(64x0\)/], // Y = 0: set later by DNL (§B.2.5), nothing to check
      [withFrameHeader(BASELINE, { width: 0 }), /declares no pixels/],
      [withFrameHeader(BASELINE, { components: [] }), /declares no components/],
      [
        withFrameHeader(BASELINE, {
          components: [
            [1, 0x11, 0],
            [2, 0x05, 1],
            [3, 0x11, 1],
          ],
        }),
        /sampling factors 0x5/,
      ],
      [
        withFrameHeader(BASELINE, {
          components: [
            [1, 0x11, 0],
            [2, 0x11, 4],
            [3, 0x11, 1],
          ],
        }),
        /quantization table 4/,
      ],
      [
        withFrameHeader(BASELINE, {
          components: [
            [1, 0x11, 0],
            [1, 0x11, 1],
            [3, 0x11, 1],
          ],
        }),
        /names a component twice/,
      ],
      [
        withFrameHeader(BASELINE, {
          components: [
            [1, 0x11, 0],
            [2, 0x11, 1],
            [9, 0x11, 1],
          ],
        }),
        /scan header names an unknown/,
      ],
      [withSegment(BASELINE, 0xc0, [8, 0, 16, 0, 16, 1, 1, 0x11, 0]), /second frame header/],
      [withSegment(BASELINE, 0xdc, [0, 16]), /DNL segment before its first scan/],
      [withSegment(BASELINE, 0xfe, []).map((b, i) => (i === sofOffset(BASELINE) + 3 ? 1 : b)), /segment is cut short/], // a length of 1
      [Uint8Array.from([0xff, 0xd8, 0xff, 0xfe, 0x40, 0x00, 0x41]), /cut short/], // a comment longer than the file
      [Uint8Array.from([0xff, 0xd8, 0xff, 0xd9]), /ends \(EOI\) before its first scan/],
      [Uint8Array.from([0xff, 0xd8, 0xff, 0xd8]), /second SOI/],
      [Uint8Array.from([0xff, 0xd8, 0xff, 0xfe, 0, 2, 0x00, 0x00]), /marker expected/],
    ];
    for (const [bytes, message] of cases) expect(judged(bytes)).toMatch(new RegExp(`^BAD_IMAGE: .*${message.source}`));
  });

  it('refuses from the header what the JPEG decoder would refuse: other processes, 12-bit, CMYK, large MCUs, huge dimensions', () => {
    expect(judged(withFrameHeader(BASELINE, { sof: 0xc1, precision: 12 }))).toBe('BAD_IMAGE: 12-bit JPEG is not decoded (8-bit only)');
    expect(judged(withFrameHeader(PROGRESSIVE, { precision: 12 }))).toMatch(/12-bit/);
    const cmyk = withSegment(
      withFrameHeader(BASELINE, {
        components: [
          [1, 0x11, 0],
          [2, 0x11, 1],
          [3, 0x11, 1],
          [4, 0x11, 0],
        ],
      }),
      0xee,
      [...Buffer.from('Adobe'), 0, 100, 0, 0, 0, 0, 2],
    );
    expect(readImageHeader(cmyk)).toMatchObject({ components: 4, bitDepth: 8 });
    expect(judged(cmyk)).toBe('BAD_IMAGE: JPEG with 4 components is not decoded (grey or colour only: no CMYK)');
    expect(judged(withFrameHeader(BASELINE, { sof: 0xc3 }))).toMatch(/lossless process \(SOF3\)/);
    expect(judged(withFrameHeader(BASELINE, { sof: 0xc9 }))).toMatch(/arithmetic process \(SOF9\)/);
    expect(judged(withFrameHeader(BASELINE, { sof: 0xca }))).toMatch(/progressive arithmetic process \(SOF10\)/);
    expect(judged(withFrameHeader(BASELINE, { sof: 0xc5 }))).toMatch(/hierarchical JPEG/);
    expect(judged(withSegment(BASELINE, 0xde, [8, 0, 48, 0, 64, 3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]))).toMatch(/hierarchical JPEG/); // DHP
    expect(
      judged(
        withFrameHeader(BASELINE, {
          components: [
            [1, 0x44, 0],
            [2, 0x11, 1],
            [3, 0x11, 1],
          ],
        }),
      ),
    ).toMatch(/MCU holds 18 blocks/);
    expect(judged(withFrameHeader(BASELINE, { width: 65535, height: 65535 }))).toMatch(/^TOO_LARGE: jpeg image of 65535x65535/);
    expect(judged(withFrameHeader(BASELINE, { width: 4000, height: 3000 }))).toBe('accepted'); // a 12 MP phone frame
  });

  it("accepts a JPEG frame header only when the decoder's own frame parse takes it too (fuzzed P, Nf, sampling, tables)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0xc0, 0xc1, 0xc2),
        fc.constantFrom(8, 12, 16, 0, 255),
        // Components 1, 2, 3 (the ones the scan names), then more: sampling factors 0-5 each side, tables 0-5.
        fc.array(fc.tuple(fc.nat(5), fc.nat(5), fc.nat(5)), { minLength: 3, maxLength: 5 }),
        (sof, precision, factors) => {
          const components = factors.map(([h, v, tq], i) => [i + 1, (h << 4) | v, tq] as [number, number, number]);
          const bytes = withFrameHeader(BASELINE, { sof, precision, components });
          if (judged(bytes) !== 'accepted') return;
          const at = sofOffset(bytes);
          expect(() => readFrame(bytes.subarray(at + 4, at + 2 + ((bytes[at + 2] << 8) | bytes[at + 3])), sof === 0xc2)).not.toThrow();
        },
      ),
      { numRuns: 2000, seed: 23 },
    );
  });

  it('reads any byte-flipped header to a header or a FaceError, never another error or a hang', async () => {
    const sources = [BASELINE, PROGRESSIVE, RGBA_PNG, await encodeJ2k(source)];
    fc.assert(
      fc.property(fc.nat(sources.length - 1), fc.array(fc.tuple(fc.nat(600), fc.nat(255)), { minLength: 1, maxLength: 6 }), (which, flips) => {
        const bytes = Uint8Array.from(sources[which]);
        for (const [at, value] of flips) if (at < bytes.length) bytes[at] = value;
        try {
          readDecodableHeader(bytes);
        } catch (e) {
          expect(e).toBeInstanceOf(FaceError);
        }
      }),
      { numRuns: 3000, seed: 7 },
    );
  });

  it('refuses PNG headers that PNG does not define or that fail their CRC, and sizes out of range', () => {
    expect(judged(withIhdrBytes(RGBA_PNG, 0, [0, 0, 0, 0]))).toMatch(/^BAD_IMAGE: .*declares no pixels/);
    expect(judged(withIhdrBytes(RGBA_PNG, 0, [0x80, 0, 0, 0]))).toMatch(/^BAD_IMAGE: PNG declares a side over 2\^31 - 1/);
    expect(judged(withIhdrBytes(RGBA_PNG, 0, [0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0]))).toMatch(/^TOO_LARGE: png image of 100000x100000/);
    for (const [depth, colour] of [
      [16, 3],
      [4, 2],
      [1, 6],
      [8, 1],
      [8, 7],
      [3, 0],
    ]) {
      expect(judged(withIhdrBytes(RGBA_PNG, 8, [depth, colour]))).toBe(`BAD_IMAGE: PNG colour type ${colour} with bit depth ${depth} does not exist`);
    }
    for (const [at, value] of [
      [10, 1],
      [11, 1],
      [12, 2],
    ])
      expect(judged(withIhdrBytes(RGBA_PNG, at, [value]))).toMatch(/unknown compression, filter or interlace/);
    expect(judged(withIhdrBytes(RGBA_PNG, 7, [49], true))).toBe('BAD_IMAGE: PNG IHDR chunk fails its CRC');
    expect(judged(withIhdrBytes(RGBA_PNG, 8, [16, 0]))).toBe('accepted'); // 16-bit grey: pngjs takes it
  });

  it("refuses JPEG 2000 headers out of the codec's reach or malformed: 2 components, over 16 bits, a SIZ length that lies", async () => {
    const j2k = await encodeJ2k(source);
    const edited = (edit: (view: DataView) => void) => {
      const bytes = Uint8Array.from(j2k);
      edit(new DataView(bytes.buffer));
      return bytes;
    };
    expect(judged(edited((v) => v.setUint8(42, 16)))).toBe('BAD_IMAGE: 17-bit JPEG 2000 is not decoded (16 bits at most)');
    expect(judged(edited((v) => v.setUint8(42, 0x7f)))).toMatch(/invalid depth or sub-sampling/); // 128 bits
    expect(judged(edited((v) => v.setUint8(43, 0)))).toMatch(/invalid depth or sub-sampling/); // XRsiz 0
    expect(judged(edited((v) => (v.setUint16(40, 2), v.setUint16(4, 44))))).toBe('BAD_IMAGE: JPEG 2000 with 2 components is not decoded (1, 3 or 4)');
    expect(judged(edited((v) => v.setUint16(40, 4)))).toMatch(/SIZ segment does not hold its 4 components/);
    expect(judged(edited((v) => v.setUint16(40, 0)))).toMatch(/SIZ segment does not hold its 0 components/);
  });

  it('refuses what is no image format it reads, whatever the bytes claim to be', () => {
    for (const bytes of [
      Buffer.from('GIF89a\x10\x00\x10\x00', 'latin1'),
      Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ', 'latin1'),
      Buffer.from('<svg/>'),
      Buffer.alloc(0),
    ]) {
      expect(judged(new Uint8Array(bytes))).toBe('BAD_IMAGE: unrecognised image format (expected JPEG, PNG or JPEG 2000)');
    }
  });
});
