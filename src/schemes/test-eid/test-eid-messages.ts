import { htmlLang, type UiLocale } from '../../i18n/locales.js';
import type { SpecimenDocumentId } from '../../verifier-claims/specimen-identities.js';

/**
 * The test eID's specimen holders as a tester reads them: the document in their language (the holder's
 * name stays as printed on the document) and the date of birth in their locale's convention.
 */
type Texts = Record<SpecimenDocumentId, string> & { born: string };

const sv: Texts = {
  'uto-passport': 'Utopiskt pass',
  'd-idcard': 'Tyskt id-kort',
  'nor-minor': 'Norskt pass (minderårig)',
  'nor-adult': 'Norskt pass (alla uppgifter finns)',
  'nld-diacritics': 'Nederländskt pass (namn med diakritiska tecken)',
  born: 'Född {date}',
};

export const TEST_EID_MESSAGES: Record<UiLocale, Texts> = {
  en_GB: {
    'uto-passport': 'Utopia passport',
    'd-idcard': 'German ID card',
    'nor-minor': 'Norwegian passport (minor)',
    'nor-adult': 'Norwegian passport (every claim present)',
    'nld-diacritics': 'Netherlands passport (name with diacritics)',
    born: 'Born {date}',
  },
  sv_SE: sv,
  sv_FI: sv,
  nb_NO: {
    'uto-passport': 'Utopisk pass',
    'd-idcard': 'Tysk ID-kort',
    'nor-minor': 'Norsk pass (mindreårig)',
    'nor-adult': 'Norsk pass (alle opplysninger finnes)',
    'nld-diacritics': 'Nederlandsk pass (navn med diakritiske tegn)',
    born: 'Født {date}',
  },
  nn_NO: {
    'uto-passport': 'Utopisk pass',
    'd-idcard': 'Tysk ID-kort',
    'nor-minor': 'Norsk pass (mindreårig)',
    'nor-adult': 'Norsk pass (alle opplysningar finst)',
    'nld-diacritics': 'Nederlandsk pass (namn med diakritiske teikn)',
    born: 'Fødd {date}',
  },
  da_DK: {
    'uto-passport': 'Utopisk pas',
    'd-idcard': 'Tysk ID-kort',
    'nor-minor': 'Norsk pas (mindreårig)',
    'nor-adult': 'Norsk pas (alle oplysninger findes)',
    'nld-diacritics': 'Nederlandsk pas (navn med diakritiske tegn)',
    born: 'Født {date}',
  },
  fi_FI: {
    'uto-passport': 'Utopian passi',
    'd-idcard': 'Saksalainen henkilökortti',
    'nor-minor': 'Norjalainen passi (alaikäinen)',
    'nor-adult': 'Norjalainen passi (kaikki tiedot mukana)',
    'nld-diacritics': 'Alankomaalainen passi (nimessä tarkkeita)',
    born: 'Syntynyt {date}',
  },
  et_EE: {
    'uto-passport': 'Utoopia pass',
    'd-idcard': 'Saksa isikutunnistus',
    'nor-minor': 'Norra pass (alaealine)',
    'nor-adult': 'Norra pass (kõik andmed olemas)',
    'nld-diacritics': 'Hollandi pass (diakriitikutega nimi)',
    born: 'Sündinud {date}',
  },
  lv_LV: {
    'uto-passport': 'Utopijas pase',
    'd-idcard': 'Vācijas personas apliecība',
    'nor-minor': 'Norvēģijas pase (nepilngadīgais)',
    'nor-adult': 'Norvēģijas pase (visi dati ir)',
    'nld-diacritics': 'Nīderlandes pase (vārds ar diakritiskajām zīmēm)',
    born: 'Dzimšanas datums: {date}',
  },
  de_DE: {
    'uto-passport': 'Reisepass von Utopia',
    'd-idcard': 'Deutscher Personalausweis',
    'nor-minor': 'Norwegischer Reisepass (minderjährig)',
    'nor-adult': 'Norwegischer Reisepass (alle Angaben vorhanden)',
    'nld-diacritics': 'Niederländischer Reisepass (Name mit diakritischen Zeichen)',
    born: 'Geboren am {date}',
  },
  nl_NL: {
    'uto-passport': 'Utopisch paspoort',
    'd-idcard': 'Duitse identiteitskaart',
    'nor-minor': 'Noors paspoort (minderjarig)',
    'nor-adult': 'Noors paspoort (alle gegevens aanwezig)',
    'nld-diacritics': 'Nederlands paspoort (naam met diakrieten)',
    born: 'Geboren op {date}',
  },
  fr_FR: {
    'uto-passport': "Passeport d'Utopie",
    'd-idcard': "Carte d'identité allemande",
    'nor-minor': 'Passeport norvégien (mineur)',
    'nor-adult': 'Passeport norvégien (toutes les données présentes)',
    'nld-diacritics': 'Passeport néerlandais (nom avec signes diacritiques)',
    born: 'Né(e) le {date}',
  },
};

/** Made once per locale and precision: building an Intl.DateTimeFormat per date was 3 % of a test-eID login's server CPU (profile:hot-path). */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** An ISO date (YYYY-MM-DD, or less precise) in the locale's long form, e.g. "12. august 1974" in nb_NO. */
export function localDate(locale: UiLocale, iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  const key = `${locale}|${m ? 1 : 0}${m && d ? 1 : 0}`;
  let format = dateFormats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = { year: 'numeric', timeZone: 'UTC', ...(m && { month: 'long' }), ...(m && d && { day: 'numeric' }) };
    format = new Intl.DateTimeFormat(htmlLang(locale), options);
    dateFormats.set(key, format);
  }
  return format.format(new Date(Date.UTC(y, (m || 1) - 1, d || 1)));
}
