/**
 * Holder names. The MRZ name field is 'PRIMARY<<SECONDARY<NAMES' (ICAO 9303-3 §4.6): '<<'
 * separates primary from secondary identifier, single '<' separates name components, trailing
 * '<' is filler. DG11's full name and other names (9303-10 §4.7.11) use the same separators but
 * may be longer than the MRZ field and may keep diacritics, hyphens, apostrophes and non-Latin
 * script that the MRZ had to transliterate or drop.
 */

export interface NameParts {
  primaryIdentifier: string;
  /** '' when the document has no secondary identifier */
  secondaryIdentifier: string;
}

/** Lengths of the MRZ name field: TD1 (30), TD2 and MRV-B (31), TD3 and MRV-A (39). */
const MRZ_NAME_FIELD_LENGTHS: ReadonlySet<number> = new Set([30, 31, 39]);

/** 'ERIKSSON<<ANNA<MARIA<<<' -> { primaryIdentifier: 'ERIKSSON', secondaryIdentifier: 'ANNA MARIA' }. */
export function parseMrzName(field: string): NameParts {
  const text = field.trim();
  const split = text.indexOf('<<');
  if (split < 0) return { primaryIdentifier: components(text), secondaryIdentifier: '' };
  return { primaryIdentifier: components(text.slice(0, split)), secondaryIdentifier: components(text.slice(split + 2)) };
}

/**
 * True when the MRZ name was (possibly) truncated: ICAO 9303-3 §4.6.6 says a name that does not
 * fit is cut so that the field's last character is a letter, i.e. a full-length field without
 * trailing filler. Only meaningful for the field as read (with its filler); a name that fills the
 * field exactly is indistinguishable from a truncated one, as ICAO itself notes.
 */
export function isMrzNameTruncated(field: string): boolean {
  return MRZ_NAME_FIELD_LENGTHS.has(field.length) && !field.endsWith('<');
}

/** 'ERIKSSON<<ANNA<MARIA' -> 'ANNA MARIA ERIKSSON' (secondary first, as a name is usually written). */
export function readableName(field: string): string {
  const { primaryIdentifier, secondaryIdentifier } = parseMrzName(field);
  return [secondaryIdentifier, primaryIdentifier].filter(Boolean).join(' ');
}

/**
 * The holder's name as the three claims `name`, `given_name` and `family_name`, taken from one source so that they
 * always agree, in the document's letter case (spec 2.1 `name`: "as written in the document").
 */
export interface HolderNames {
  /** Readable form, secondary before primary ('KÅRE NORDMANN'). */
  name: string;
  /** '' when the document has no secondary identifier. */
  givenName: string;
  familyName: string;
}

/**
 * Rule: the DG11 full name (fuller, with its diacritics, hyphens and apostrophes) when it can be divided into
 * primary and secondary identifier, otherwise the MRZ name, for all three claims alike. DG11 is divisible when its
 * primary identifier is not empty and either it has a secondary identifier after '<<' or the MRZ has none either
 * (a mononym such as 'SUKARNO'). A DG11 name without '<<' while the MRZ has a secondary identifier (e.g. 'JÜRGEN
 * MÜLLER' written as one string), or with an empty side, cannot be divided safely: guessing where the given names
 * end could put a family name into `given_name`, and mixing sources (name from DG11, given/family from the MRZ) is
 * the disagreement this rule exists to avoid. Nothing is lost in that case: the DG11 spelling is still released as
 * `other_identifier` (its words differ from the MRZ's).
 */
export function holderNames(mrzName: string, dg11FullName?: string): HolderNames {
  const mrz = parseMrzName(mrzName);
  const dg11 = dg11FullName === undefined ? undefined : parseMrzName(dg11FullName);
  const divisible = dg11 !== undefined && dg11.primaryIdentifier !== '' && (dg11.secondaryIdentifier !== '' || mrz.secondaryIdentifier === '');
  const parts = divisible ? dg11 : mrz;
  return {
    name: [parts.secondaryIdentifier, parts.primaryIdentifier].filter(Boolean).join(' '),
    givenName: parts.secondaryIdentifier,
    familyName: parts.primaryIdentifier,
  };
}

/**
 * Given and family name that agree with a readable `name` ('KÅRE NORDMANN'), for a source that kept only the
 * document's identifiers (MRZ: 'NORDMANN', 'KAARE') beside that name: the service's own credential. The name is
 * divided where an identifier matches it word for word, case ignored: the primary identifier at its end (everything
 * before is the given name, possibly none: a mononym), else the secondary identifier at its start. Both parts are
 * then taken from the name itself, so they agree with it. When neither matches (or there is no primary identifier),
 * undefined: better no given/family name than one that disagrees with `name` or cuts it in the wrong place.
 */
export function namePartsOf(name: string, primaryIdentifier = '', secondaryIdentifier = ''): { givenName: string; familyName: string } | undefined {
  const words = wordsOf(name);
  const family = wordsOf(primaryIdentifier);
  const given = wordsOf(secondaryIdentifier);
  const same = (a: string[], b: string[]) => a.join(' ').toUpperCase() === b.join(' ').toUpperCase();
  if (words.length === 0 || family.length === 0) return undefined;
  if (family.length <= words.length && same(words.slice(words.length - family.length), family)) return divideAt(words, words.length - family.length);
  if (given.length > 0 && given.length < words.length && same(words.slice(0, given.length), given)) return divideAt(words, given.length);
  return undefined;
}

const wordsOf = (text: string) => text.split(/\s+/).filter(Boolean);
const divideAt = (words: string[], at: number) => ({ givenName: words.slice(0, at).join(' '), familyName: words.slice(at).join(' ') });

/** The display_* claims: the holder's name in the case a person writes it (see personCase). */
export interface DisplayNames {
  display_name?: string;
  display_given_name?: string;
  display_family_name?: string;
}

/**
 * `name`, `given_name` and `family_name` in the case a person writes them ('KÅRE NORDMANN' -> 'Kåre Nordmann'), for
 * the display_* claims; empty parts give no claim. Whether the name is converted at all is decided once for the
 * whole name, so the three keep agreeing: a name already in mixed case (it has a lower-case letter other than 'ß',
 * which has no traditional capital), such as a wallet's 'Erika Mustermann', is kept as written.
 */
export function displayNames(names: { name?: string; givenName?: string; familyName?: string }): DisplayNames {
  const convert = !/\p{Ll}/u.test([names.name, names.givenName, names.familyName].join(' ').replace(/ß/g, ''));
  const show = (text: string | undefined) => (text === undefined || text.trim() === '' ? undefined : convert ? personCase(text) : text);
  const result: DisplayNames = { display_name: show(names.name), display_given_name: show(names.givenName), display_family_name: show(names.familyName) };
  return Object.fromEntries(Object.entries(result).filter(([, v]) => v !== undefined)) as DisplayNames;
}

/**
 * A name in capitals in the case a person writes it ('KÅRE NORDMANN' -> 'Kåre Nordmann', 'ANNA-MARIA' ->
 * 'Anna-Maria', "O'BRIEN" -> "O'Brien"). A convenience, not an attribute of the document: the document-case claims
 * are authoritative. Language-neutral (no locale, so every server gives the same result): each letter is lower-cased
 * by Unicode's default rules (Greek final sigma comes out 'ς', 'ẞ' 'ß', and 'İ' plain 'i' rather than 'i' with a
 * combining dot), except the first letter of each word and the first after a hyphen or apostrophe, which keeps its
 * capital ('İ' stays 'İ'; the digraphs 'Ǆ', 'Ǉ', 'Ǌ', 'Ǳ' take their title forms; a word starting with 'ß' gets 'Ss').
 * Known limits: 'MCDONALD' -> 'Mcdonald', 'VAN DER BERG' -> 'Van Der Berg', 'DE LA CRUZ' -> 'De La Cruz', and
 * Turkish 'I' lowers to 'i', not 'ı' ('IŞIK' -> 'Işik').
 */
export function personCase(text: string): string {
  return text.replace(/[^\s\-‐'’ʼ]+/gu, (word) => {
    const lower = word.replace(/İ/g, 'i').toLowerCase();
    const first = /\p{L}/u.exec(word);
    if (first === null) return lower;
    const initial = String.fromCodePoint(word.codePointAt(first.index)!);
    // İ -> i and ẞ -> ß keep their UTF-16 length, and no other letter changes length when lower-cased (Unicode
    // SpecialCasing), so the positions in `word` are positions in `lower`.
    return lower.slice(0, first.index) + titleCase(initial) + lower.slice(first.index + initial.length);
  });
}

/** Title case of one letter: capitals stay (including 'İ'), the Latin digraphs take their title form, 'ß' -> 'Ss'. */
function titleCase(letter: string): string {
  const digraph = TITLE_DIGRAPHS[letter];
  if (digraph !== undefined) return digraph;
  if (/\p{Lu}|\p{Lt}/u.test(letter)) return letter;
  const upper = letter.toUpperCase();
  return [...upper].length > 1 ? upper.charAt(0) + upper.slice(1).toLowerCase() : upper;
}

/** Ǆ ǅ ǆ, Ǉ ǈ ǉ, Ǌ ǋ ǌ, Ǳ ǲ ǳ: Unicode's title-case forms (String.prototype has no toTitleCase). */
const TITLE_DIGRAPHS: Readonly<Record<string, string>> = Object.freeze({ Ǆ: 'ǅ', ǆ: 'ǅ', Ǉ: 'ǈ', ǉ: 'ǈ', Ǌ: 'ǋ', ǌ: 'ǋ', Ǳ: 'ǲ', ǳ: 'ǲ' });

/**
 * The `other_identifier` claim (spec 2.1: "names that did not fit in primary/secondary identifier
 * because of size or character encoding").
 *
 * Rule: each DG11 name (the full name, then the other names) whose words differ from the MRZ
 * name's words is an other identifier. Words are compared upper-cased and in any order, so a DG11
 * copy of the MRZ name, or the same words in 'Given Family' order, does not count; but a longer
 * name (MRZ truncated), diacritics ('MÜLLER' vs MRZ 'MUELLER'), hyphens or apostrophes ('ANNA-MARIA'
 * vs MRZ 'ANNA<MARIA') and non-Latin script all do. Each is rendered 'PRIMARY, SECONDARY' (the
 * comma keeps the primary/secondary boundary visible) or as written when it has no '<<';
 * several are joined with '; ' after removing duplicates. Without DG11 there is nothing fuller to
 * return (a truncated MRZ cannot be completed), so the result is undefined.
 */
export function otherIdentifier(mrzName: string, dg11FullName?: string, dg11OtherNames: readonly string[] = []): string | undefined {
  const seen = new Set([wordKey(mrzName)]);
  const result: string[] = [];
  for (const candidate of [dg11FullName ?? '', ...dg11OtherNames]) {
    const key = wordKey(candidate);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    result.push(identifierForm(candidate));
  }
  return result.length ? result.join('; ') : undefined;
}

/** 'MÜLLER<<JÜRGEN' -> 'MÜLLER, JÜRGEN'; 'Jürgen Müller' stays as written. */
function identifierForm(name: string): string {
  if (!name.includes('<<')) return components(name);
  const { primaryIdentifier, secondaryIdentifier } = parseMrzName(name);
  return secondaryIdentifier ? `${primaryIdentifier}, ${secondaryIdentifier}` : primaryIdentifier;
}

/** Order-independent, case-insensitive word set used to decide whether two names say the same. */
function wordKey(name: string): string {
  return name
    .toLocaleUpperCase('en')
    .split(/[<\s]+/)
    .filter(Boolean)
    .sort()
    .join(' ');
}

/** '<' separates components; runs of '<' and whitespace become one space. */
function components(text: string): string {
  return text.replace(/[<\s]+/g, ' ').trim();
}
