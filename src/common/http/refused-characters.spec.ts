import { LONE_SURROGATE_REFUSED, NUL_REFUSED, refusedTextIn, refusedTextInParameter, refusedTextInValue } from './refused-characters.js';

describe('text no parameter may carry', () => {
  it('refuses NUL and lone surrogates, high or low, anywhere in a string', () => {
    expect(refusedTextIn('a\u0000b')).toBe(NUL_REFUSED);
    for (const s of ['a\udfff', '\ud800', 'x\ud83dy', '\ude00😀', '😀\ud83d']) expect(refusedTextIn(s)).toBe(LONE_SURROGATE_REFUSED);
  });

  it('accepts well-formed text, surrogate pairs and U+FFFD included', () => {
    for (const s of ['', 'é', '😀', '\ud83d\ude00', '𝔘𝔫𝔦', '\ufffd', '\uffff', '\u202e']) expect(refusedTextIn(s)).toBeUndefined();
  });

  it('looks into parsed values, keys included, however wide', () => {
    expect(refusedTextInValue(JSON.parse('{"labels":{"en_GB":"a\\udfff"}}'))).toBe(LONE_SURROGATE_REFUSED);
    expect(refusedTextInValue(JSON.parse('{"\\ud800":1}'))).toBe(LONE_SURROGATE_REFUSED);
    expect(refusedTextInValue([Array(300_000).fill('ok'), ['\u0000']])).toBe(NUL_REFUSED);
    expect(refusedTextInValue({ name: 'Shop 😀', n: 1, list: [null, true] })).toBeUndefined();
  });

  it('looks one decoding deep into parameters: JSON, a JWT, Base64 of JSON', () => {
    const b64url = (s: string) => Buffer.from(s).toString('base64url');
    expect(refusedTextInParameter('{"userinfo":{"given_name":{"value":"\\udfff"}}}')).toBe(LONE_SURROGATE_REFUSED);
    expect(refusedTextInParameter(`${b64url('{"alg":"none"}')}.${b64url('{"iss":"m\\ud800"}')}.`)).toBe(LONE_SURROGATE_REFUSED);
    expect(refusedTextInParameter(Buffer.from('{"bindingMessage":"\\udc00"}').toString('base64'))).toBe(LONE_SURROGATE_REFUSED);
    expect(refusedTextInParameter('{"bindingMessage":"\\ud83d\\ude00"}')).toBeUndefined();
  });
});
