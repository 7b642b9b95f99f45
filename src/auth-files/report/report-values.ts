import type { ClaimLabels, ReportLocale } from '../../i18n/auth-files-report-messages.js';
import { reportValueMessagesFor, type ReportValueMessages } from '../../i18n/auth-files-report-values.js';
import { countryNameIn } from '../../verifier-claims/country-names.js';

export interface ReportAttribute {
  name: keyof ClaimLabels;
  /** The claim's value as text (a list joined with ', '). */
  value: string;
  /** interpreted_issuing_country and interpreted_nationality: the ICAO code their name was made from. */
  code?: string;
}

/**
 * The attributes as a person reads them in the report's language: coded values in words, country names in the
 * locale, and "other names" without the full name it would repeat (the claim, read by machines, keeps it: spec 2.1
 * has no name claim for DG11's original spelling). An attribute left with nothing to show is dropped.
 */
export function displayAttributes(attributes: readonly ReportAttribute[], locale: ReportLocale): { name: keyof ClaimLabels; text: string }[] {
  const words = reportValueMessagesFor(locale);
  const fullName = attributes.find((a) => a.name === 'name')?.value;
  return attributes.map((a) => ({ name: a.name, text: display(a, words, locale, fullName) })).filter((a) => a.text !== '');
}

/** result_explanation codes (spec 7.3 and ours) in words; an unknown code stays as it is. */
export function displayExplanations(codes: readonly string[], locale: ReportLocale): string {
  const words = reportValueMessagesFor(locale).explanation as Record<string, string>;
  return capitalise(codes.map((c) => words[c] ?? c).join(', '), locale);
}

function display(a: ReportAttribute, words: ReportValueMessages, locale: ReportLocale, fullName: string | undefined): string {
  switch (a.name) {
    case 'document_type':
      return (words.documentType as Record<string, string>)[a.value] ?? a.value;
    case 'gender':
      return (words.gender as Record<string, string>)[a.value] ?? a.value;
    case 'authentication_sources':
      return capitalise(
        a.value
          .split(', ')
          .map((s) => (words.source as Record<string, string>)[s] ?? s)
          .join(', '),
        locale,
      );
    case 'interpreted_issuing_country':
    case 'interpreted_nationality':
      return (a.code && countryNameIn(a.code, locale)) || a.value;
    case 'other_identifier':
      return fullName === undefined
        ? a.value
        : a.value
            .split('; ')
            .filter((n) => wordKey(n) !== wordKey(fullName))
            .join('; ');
    default:
      return a.value;
  }
}

/** Names compared as sets of words, case and order ignored ('NORDMANN, KÅRE' is 'KÅRE NORDMANN'). */
function wordKey(name: string): string {
  return name
    .toLocaleUpperCase('en')
    .split(/[\s,<]+/)
    .filter(Boolean)
    .sort()
    .join(' ');
}

function capitalise(text: string, locale: ReportLocale): string {
  return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
}
