import type { UiLocale } from './locales.js';
import type { WaitingTexts } from './waiting-messages.js';

/** The EU wallet scheme's name on the choice page and its waiting page's hand-off (the wallet, not the ID app). */
export interface WalletMessages extends WaitingTexts {
  name: string;
  title: string;
  /** The second same-device link (plain OpenID4VP), for wallets that do not open the HAIP one. */
  openOther: string;
}

const en: WalletMessages = {
  name: 'EU Digital Identity Wallet',
  title: 'Share your identity from your wallet',
  openApp: 'Open wallet',
  openOther: 'Wallet did not open? Try this link',
  phoneInstruction: 'Open your EU Digital Identity Wallet on this phone and share what is asked.',
  qrInstruction: 'Scan this QR code with your EU Digital Identity Wallet. Keep this page open.',
  qrLabel: 'QR code for your wallet',
  linkLabel: 'Link for your wallet',
  phone_connected: 'Wallet connected',
};

const sv: WalletMessages = {
  name: 'EU:s digitala identitetsplånbok',
  title: 'Dela din identitet från plånboken',
  openApp: 'Öppna plånboken',
  openOther: 'Öppnades inte plånboken? Prova den här länken',
  phoneInstruction: 'Öppna din EU-identitetsplånbok på den här telefonen och dela det som efterfrågas.',
  qrInstruction: 'Skanna QR-koden med din EU-identitetsplånbok. Håll den här sidan öppen.',
  qrLabel: 'QR-kod för plånboken',
  linkLabel: 'Länk för plånboken',
  phone_connected: 'Plånboken ansluten',
};

export const WALLET_MESSAGES: Record<UiLocale, WalletMessages> = {
  en_GB: en,
  sv_SE: sv,
  sv_FI: sv,
  nb_NO: {
    name: 'EUs digitale identitetslommebok',
    title: 'Del identiteten din fra lommeboken',
    openApp: 'Åpne lommeboken',
    openOther: 'Åpnet ikke lommeboken seg? Prøv denne lenken',
    phoneInstruction: 'Åpne EU-identitetslommeboken på denne telefonen og del det som blir spurt om.',
    qrInstruction: 'Skann QR-koden med EU-identitetslommeboken. Hold denne siden åpen.',
    qrLabel: 'QR-kode for lommeboken',
    linkLabel: 'Lenke for lommeboken',
    phone_connected: 'Lommeboken er tilkoblet',
  },
  nn_NO: {
    name: 'EUs digitale identitetslommebok',
    title: 'Del identiteten din frå lommeboka',
    openApp: 'Opne lommeboka',
    openOther: 'Opna ikkje lommeboka seg? Prøv denne lenkja',
    phoneInstruction: 'Opne EU-identitetslommeboka på denne telefonen og del det som vert spurt om.',
    qrInstruction: 'Skann QR-koden med EU-identitetslommeboka. Hald denne sida open.',
    qrLabel: 'QR-kode for lommeboka',
    linkLabel: 'Lenkje for lommeboka',
    phone_connected: 'Lommeboka er kopla til',
  },
  da_DK: {
    name: 'EU’s digitale identitetstegnebog',
    title: 'Del din identitet fra tegnebogen',
    openApp: 'Åbn tegnebogen',
    openOther: 'Åbnede tegnebogen ikke? Prøv dette link',
    phoneInstruction: 'Åbn din EU-identitetstegnebog på denne telefon, og del det, der bliver spurgt om.',
    qrInstruction: 'Scan QR-koden med din EU-identitetstegnebog. Hold denne side åben.',
    qrLabel: 'QR-kode til tegnebogen',
    linkLabel: 'Link til tegnebogen',
    phone_connected: 'Tegnebogen er forbundet',
  },
  fi_FI: {
    name: 'EU:n digitaalinen identiteettilompakko',
    title: 'Jaa henkilöllisyytesi lompakosta',
    openApp: 'Avaa lompakko',
    openOther: 'Eikö lompakko auennut? Kokeile tätä linkkiä',
    phoneInstruction: 'Avaa EU:n identiteettilompakko tässä puhelimessa ja jaa pyydetyt tiedot.',
    qrInstruction: 'Skannaa QR-koodi EU:n identiteettilompakolla. Pidä tämä sivu auki.',
    qrLabel: 'QR-koodi lompakolle',
    linkLabel: 'Linkki lompakolle',
    phone_connected: 'Lompakko yhdistetty',
  },
  et_EE: {
    name: 'ELi digitaalse identiteedi rahakott',
    title: 'Jaga oma isikuandmeid rahakotist',
    openApp: 'Ava rahakott',
    openOther: 'Rahakott ei avanenud? Proovi seda linki',
    phoneInstruction: 'Ava selles telefonis ELi identiteedi rahakott ja jaga küsitud andmeid.',
    qrInstruction: 'Skanni QR-kood ELi identiteedi rahakotiga. Hoia see leht avatuna.',
    qrLabel: 'QR-kood rahakoti jaoks',
    linkLabel: 'Link rahakoti jaoks',
    phone_connected: 'Rahakott ühendatud',
  },
  lv_LV: {
    name: 'ES digitālās identitātes maks',
    title: 'Kopīgojiet savu identitāti no maka',
    openApp: 'Atvērt maku',
    openOther: 'Maks neatvērās? Izmēģiniet šo saiti',
    phoneInstruction: 'Atveriet šajā tālrunī ES identitātes maku un kopīgojiet pieprasītos datus.',
    qrInstruction: 'Noskenējiet QR kodu ar ES identitātes maku. Neaizveriet šo lapu.',
    qrLabel: 'QR kods makam',
    linkLabel: 'Saite makam',
    phone_connected: 'Maks pievienots',
  },
  de_DE: {
    name: 'EU-Brieftasche für die digitale Identität',
    title: 'Identität aus der Brieftasche teilen',
    openApp: 'Brieftasche öffnen',
    openOther: 'Brieftasche nicht geöffnet? Versuchen Sie diesen Link',
    phoneInstruction: 'Öffnen Sie Ihre EU-Identitäts-Brieftasche auf diesem Telefon und teilen Sie, was angefragt wird.',
    qrInstruction: 'Scannen Sie diesen QR-Code mit Ihrer EU-Identitäts-Brieftasche. Lassen Sie diese Seite geöffnet.',
    qrLabel: 'QR-Code für Ihre Brieftasche',
    linkLabel: 'Link für Ihre Brieftasche',
    phone_connected: 'Brieftasche verbunden',
  },
  nl_NL: {
    name: 'Europese digitale identiteitswallet',
    title: 'Deel uw identiteit vanuit uw wallet',
    openApp: 'Wallet openen',
    openOther: 'Wallet niet geopend? Probeer deze link',
    phoneInstruction: 'Open uw Europese identiteitswallet op deze telefoon en deel wat er gevraagd wordt.',
    qrInstruction: 'Scan deze QR-code met uw Europese identiteitswallet. Houd deze pagina open.',
    qrLabel: 'QR-code voor uw wallet',
    linkLabel: 'Link voor uw wallet',
    phone_connected: 'Wallet verbonden',
  },
  fr_FR: {
    name: "Portefeuille européen d'identité numérique",
    title: 'Partagez votre identité depuis votre portefeuille',
    openApp: 'Ouvrir le portefeuille',
    openOther: "Le portefeuille ne s'est pas ouvert ? Essayez ce lien",
    phoneInstruction: "Ouvrez votre portefeuille européen d'identité sur ce téléphone et partagez ce qui est demandé.",
    qrInstruction: "Scannez ce code QR avec votre portefeuille européen d'identité. Gardez cette page ouverte.",
    qrLabel: 'Code QR pour votre portefeuille',
    linkLabel: 'Lien pour votre portefeuille',
    phone_connected: 'Portefeuille connecté',
  },
};
