/**
 * Just enough XML writing for SAML messages we build ourselves: every attribute value and text node goes
 * through these escapes, so no claim value (names with `<` or `&`, a TARGET with quotes) can change the
 * document's structure. Characters XML 1.0 cannot carry at all (controls other than tab/newline/return)
 * are refused rather than silently dropped: an assertion never says something other than the claim.
 */
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

function checked(value: string): string {
  if (NOT_XML_CHAR.test(value)) throw new RangeError('value holds a character XML cannot carry');
  return value;
}

export function escapeText(value: string): string {
  return checked(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

export function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}

type Attributes = Record<string, string | undefined>;

/** `<name a="…">children</name>`; attributes in the order given, undefined ones left out. */
export function element(name: string, attributes: Attributes, ...children: string[]): string {
  const attrs = Object.entries(attributes)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => ` ${k}="${escapeAttribute(v)}"`)
    .join('');
  return children.length ? `<${name}${attrs}>${children.join('')}</${name}>` : `<${name}${attrs}/>`;
}

export function textElement(name: string, attributes: Attributes, text: string): string {
  return element(name, attributes, escapeText(text));
}
