import { JSON_BOUNDS, jsonBoundsExceeded, jsonTextBoundsExceeded, verifyJsonBounds } from './json-bounds.js';
import { mulberry32 } from '../../../test/support/seeded-random.js';

const nested = (levels: number) => JSON.parse('['.repeat(levels) + ']'.repeat(levels)) as unknown;
const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

describe('JSON bounds of a parsed body', () => {
  it('lets the largest legitimate shapes through', () => {
    const merchant = {
      name: 'Shop',
      redirect_uris: Array(20).fill('https://a.example/cb'),
      jwks: { keys: Array.from({ length: 20 }, () => ({ kty: 'RSA', n: 'x', e: 'AQAB', x5c: ['a', 'b', 'c'] })) },
    };
    expect(jsonBoundsExceeded(merchant)).toBeUndefined();
    expect(jsonBoundsExceeded(keys(JSON_BOUNDS.maxEntries))).toBeUndefined();
    expect(jsonBoundsExceeded(nested(JSON_BOUNDS.maxDepth))).toBeUndefined();
    for (const v of [undefined, null, 'text', 0, true, {}, []]) expect(jsonBoundsExceeded(v)).toBeUndefined();
  });

  it('counts members and array elements over the whole body, and the levels of nesting', () => {
    expect(jsonBoundsExceeded(keys(1_001))).toMatch(/more than 1000 fields and array elements/);
    expect(jsonBoundsExceeded(Array(1_001).fill(0))).toMatch(/more than 1000/);
    expect(jsonBoundsExceeded({ a: keys(500), b: [keys(499)] })).toMatch(/more than 1000/);
    expect(jsonBoundsExceeded(nested(JSON_BOUNDS.maxDepth + 1))).toMatch(/nests deeper than 16 levels/);
    expect(jsonBoundsExceeded(JSON.parse('{"__proto__":{"__proto__":{"__proto__":1}}}'), { maxEntries: 10, maxDepth: 2 })).toMatch(/deeper/);
  });
});

describe('JSON bounds of the raw text, before parsing', () => {
  const random = mulberry32(20261124);
  const int = (n: number) => Math.floor(random() * n);
  /** Strings full of what the scan must not take for structure: quotes, backslashes, brackets, commas. */
  const trickyString = () => Array.from({ length: int(6) }, () => ['"', '\\', '[', ']', '{', '}', ',', ':', ' ', 'é', '😀', 'a'][int(12)]).join('');
  const value = (depth: number): unknown => {
    const r = random();
    if (depth > 6 || r < 0.35) return [trickyString(), int(100), null, true][int(4)];
    if (r < 0.65) return Array.from({ length: int(5) }, () => value(depth + 1));
    // Keys unique within their object: the parse keeps one of repeated keys, the text would count each.
    return Object.fromEntries(Array.from({ length: int(5) }, (_, i) => [`${i}${trickyString()}`, value(depth + 1)]));
  };

  it('agrees with the parsed walk on 2,000 random bodies (strings with quotes, brackets and escapes, whitespace, empty containers)', () => {
    // Each bound on its own: with both exceeded, the two may find either first.
    const entriesOnly = { maxEntries: 12, maxDepth: Infinity };
    const depthOnly = { maxEntries: Infinity, maxDepth: 4 };
    let refused = 0;
    for (let i = 0; i < 2_000; i++) {
      const text = JSON.stringify(value(0), null, [undefined, 2, '\t'][int(3)]);
      const parsed = JSON.parse(text) as unknown;
      const bytes = Buffer.from(text);
      const expected = [jsonBoundsExceeded(parsed, entriesOnly), jsonBoundsExceeded(parsed, depthOnly)];
      const result = [jsonTextBoundsExceeded(bytes, entriesOnly), jsonTextBoundsExceeded(bytes, depthOnly)];
      if (result[0] !== expected[0] || result[1] !== expected[1]) expect({ text, result }).toEqual({ text, result: expected });
      if (expected[0] || expected[1]) refused++;
    }
    // Both sides of the bounds were reached.
    expect(refused).toBeGreaterThan(200);
    expect(refused).toBeLessThan(1_800);
  });

  it('stops at the first excess of a body of keys or a deep one', () => {
    expect(jsonTextBoundsExceeded(Buffer.from(JSON.stringify(keys(150_000))))).toMatch(/more than 1000/);
    expect(jsonTextBoundsExceeded(Buffer.from('{"a":'.repeat(100_000)))).toMatch(/deeper than 16/);
    expect(jsonTextBoundsExceeded(Buffer.from(JSON.stringify({ sod: 'A'.repeat(1_000_000), data_groups: { '1': '"[{,'.repeat(1_000) } })))).toBeUndefined();
  });
});

describe("verifyJsonBounds (the body parsers' hook)", () => {
  it('refuses a body beyond the bounds with 400 and another charset than UTF-8 with 415', () => {
    expect(() => verifyJsonBounds(undefined, undefined, Buffer.from(JSON.stringify(keys(1_001))), 'utf-8')).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => verifyJsonBounds(undefined, undefined, Buffer.from('{}', 'utf16le'), 'utf-16le')).toThrow(expect.objectContaining({ status: 415 }));
    expect(() => verifyJsonBounds(undefined, undefined, Buffer.from('{"a":[1,2,3]}'), 'utf-8')).not.toThrow();
  });
});
