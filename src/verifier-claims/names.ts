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

/** The `name` claim: DG11 full name when the chip has one (fuller, original spelling), else the MRZ name. */
export function holderName(mrzName: string, dg11FullName?: string): string {
  const fromDg11 = dg11FullName === undefined ? '' : readableName(dg11FullName);
  return fromDg11 || readableName(mrzName);
}

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
