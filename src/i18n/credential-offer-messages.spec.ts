import { CREDENTIAL_OFFER_MESSAGES, type CredentialOfferMessages } from './credential-offer-messages.js';
import { UI_LOCALES } from './locales.js';

type FlatTexts = Record<string, string>;

/** Every text of a locale by a flat key ("offerTitle", "claimLabels.gender"), so claim labels are checked like the rest. */
function flatten(messages: CredentialOfferMessages): FlatTexts {
  const { claimLabels, ...texts } = messages;
  const flat: FlatTexts = { ...texts };
  for (const [claim, label] of Object.entries(claimLabels)) flat[`claimLabels.${claim}`] = label;
  return flat;
}

function placeholders(text: string): string[] {
  return (text.match(/\{[^{}]*\}/g) ?? []).sort();
}

/** The offer page's own texts: a person reads them on the broker's page, so each must be in the page language. */
const OFFER_PAGE_KEYS = [
  'offerTitle',
  'offerIntro',
  'openWallet',
  'qrInstruction',
  'qrLabel',
  'txCodeLabel',
  'txCodeHelp',
  'validUntil',
  'continueTo',
  'revokeHelp',
  'revokeLink',
] as const satisfies readonly (keyof CredentialOfferMessages)[];

const english = flatten(CREDENTIAL_OFFER_MESSAGES.en_GB);
const translated = UI_LOCALES.filter((locale) => locale !== 'en_GB');

describe('credential offer texts', () => {
  it.each(UI_LOCALES)('%s has every text, none empty', (locale) => {
    const texts = flatten(CREDENTIAL_OFFER_MESSAGES[locale]);
    expect(Object.keys(texts).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(texts)) expect({ key, text: text.trim() }).not.toEqual({ key, text: '' });
  });

  it.each(UI_LOCALES)('%s keeps the placeholders exactly as in English', (locale) => {
    const texts = flatten(CREDENTIAL_OFFER_MESSAGES[locale]);
    for (const key of Object.keys(english)) {
      expect({ key, placeholders: placeholders(texts[key]) }).toEqual({ key, placeholders: placeholders(english[key]) });
    }
  });

  it.each(translated)('%s is a translation, not the English object', (locale) => {
    const messages = CREDENTIAL_OFFER_MESSAGES[locale];
    expect(messages).not.toBe(CREDENTIAL_OFFER_MESSAGES.en_GB);
    expect(messages.claimLabels).not.toBe(CREDENTIAL_OFFER_MESSAGES.en_GB.claimLabels);
    const untranslated = OFFER_PAGE_KEYS.filter((key) => messages[key] === CREDENTIAL_OFFER_MESSAGES.en_GB[key]);
    expect(untranslated).toEqual([]);
  });

  it('shares an object only between the two Swedish locales', () => {
    const owners = new Map<CredentialOfferMessages, string[]>();
    for (const locale of UI_LOCALES) owners.set(CREDENTIAL_OFFER_MESSAGES[locale], [...(owners.get(CREDENTIAL_OFFER_MESSAGES[locale]) ?? []), locale]);
    const shared = [...owners.values()].filter((locales) => locales.length > 1);
    expect(shared).toEqual([['sv_SE', 'sv_FI']]);
  });

  // The QR code's instruction is shown on a desktop, where the wallet button is not: nothing comes before it to be "or".
  const OR: Record<string, RegExp> = {
    en: /^or\b/i,
    sv: /^eller\b/i,
    nb: /^eller\b/i,
    nn: /^eller\b/i,
    da: /^eller\b/i,
    fi: /^tai\b/i,
    et: /^või\b/i,
    lv: /^vai\b/i,
    de: /^oder\b/i,
    nl: /^of\b/i,
    fr: /^ou\b/i,
  };
  it.each(UI_LOCALES)('%s: the QR instruction stands on its own', (locale) => {
    expect(CREDENTIAL_OFFER_MESSAGES[locale].qrInstruction).not.toMatch(OR[locale.slice(0, 2)]);
  });
});
