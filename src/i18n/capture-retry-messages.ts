import type { UiLocale } from './locales.js';

/**
 * Why the phone must capture the face again (422 capture_retry), in words for the person holding the phone.
 * The codes are the verifier's failure-to-acquire reasons (ISO/IEC 19795-1), counted apart from false rejects.
 */
export const CAPTURE_RETRY_REASONS = [
  'FACE_TOO_BLURRED',
  'FACE_TOO_DARK',
  'FACE_TOO_BRIGHT',
  'FACE_TOO_SMALL',
  'FACE_OFF_POSE',
  'MULTIPLE_FACES',
  'FACE_NOT_FOUND',
] as const;
export type CaptureRetryReason = (typeof CAPTURE_RETRY_REASONS)[number];

type Texts = Record<CaptureRetryReason, string>;

const en: Texts = {
  FACE_TOO_BLURRED: 'The picture is blurred. Hold the phone still and try again.',
  FACE_TOO_DARK: 'Your face is too dark. Face a light and try again.',
  FACE_TOO_BRIGHT: 'Your face is overexposed. Move out of direct light and try again.',
  FACE_TOO_SMALL: 'Your face is too small in the picture. Hold the phone closer and try again.',
  FACE_OFF_POSE: 'Look straight at the camera at the start, then try again.',
  MULTIPLE_FACES: 'More than one face is in the picture. Only you may be in it; try again.',
  FACE_NOT_FOUND: 'No face was found. Keep your whole face in the frame and try again.',
};

const sv: Texts = {
  FACE_TOO_BLURRED: 'Bilden är suddig. Håll telefonen stilla och försök igen.',
  FACE_TOO_DARK: 'Ditt ansikte är för mörkt. Vänd dig mot ljuset och försök igen.',
  FACE_TOO_BRIGHT: 'Ditt ansikte är överexponerat. Flytta dig ur direkt ljus och försök igen.',
  FACE_TOO_SMALL: 'Ditt ansikte är för litet i bilden. Håll telefonen närmare och försök igen.',
  FACE_OFF_POSE: 'Titta rakt in i kameran i början och försök sedan igen.',
  MULTIPLE_FACES: 'Det finns mer än ett ansikte i bilden. Bara du får synas; försök igen.',
  FACE_NOT_FOUND: 'Inget ansikte hittades. Håll hela ansiktet i bilden och försök igen.',
};

const nb: Texts = {
  FACE_TOO_BLURRED: 'Bildet er uskarpt. Hold telefonen stødig og prøv igjen.',
  FACE_TOO_DARK: 'Ansiktet ditt er for mørkt. Vend deg mot lyset og prøv igjen.',
  FACE_TOO_BRIGHT: 'Ansiktet ditt er overeksponert. Flytt deg bort fra direkte lys og prøv igjen.',
  FACE_TOO_SMALL: 'Ansiktet ditt er for lite i bildet. Hold telefonen nærmere og prøv igjen.',
  FACE_OFF_POSE: 'Se rett inn i kameraet i starten, og prøv igjen.',
  MULTIPLE_FACES: 'Det er mer enn ett ansikt i bildet. Bare du kan være med; prøv igjen.',
  FACE_NOT_FOUND: 'Fant ikke noe ansikt. Hold hele ansiktet i bildet og prøv igjen.',
};

export const CAPTURE_RETRY_MESSAGES: Record<UiLocale, Texts> = {
  en_GB: en,
  sv_SE: sv,
  sv_FI: sv,
  nb_NO: nb,
  nn_NO: {
    FACE_TOO_BLURRED: 'Biletet er uskarpt. Hald telefonen stødig og prøv igjen.',
    FACE_TOO_DARK: 'Andletet ditt er for mørkt. Vend deg mot lyset og prøv igjen.',
    FACE_TOO_BRIGHT: 'Andletet ditt er overeksponert. Flytt deg bort frå direkte lys og prøv igjen.',
    FACE_TOO_SMALL: 'Andletet ditt er for lite i biletet. Hald telefonen nærare og prøv igjen.',
    FACE_OFF_POSE: 'Sjå rett inn i kameraet i starten, og prøv igjen.',
    MULTIPLE_FACES: 'Det er meir enn eitt andlet i biletet. Berre du kan vere med; prøv igjen.',
    FACE_NOT_FOUND: 'Fann ikkje noko andlet. Hald heile andletet i biletet og prøv igjen.',
  },
  da_DK: {
    FACE_TOO_BLURRED: 'Billedet er uskarpt. Hold telefonen stille, og prøv igen.',
    FACE_TOO_DARK: 'Dit ansigt er for mørkt. Vend dig mod lyset, og prøv igen.',
    FACE_TOO_BRIGHT: 'Dit ansigt er overbelyst. Flyt dig væk fra direkte lys, og prøv igen.',
    FACE_TOO_SMALL: 'Dit ansigt er for lille i billedet. Hold telefonen tættere på, og prøv igen.',
    FACE_OFF_POSE: 'Se lige ind i kameraet i starten, og prøv igen.',
    MULTIPLE_FACES: 'Der er mere end ét ansigt i billedet. Kun du må være med; prøv igen.',
    FACE_NOT_FOUND: 'Der blev ikke fundet noget ansigt. Hold hele ansigtet i billedet, og prøv igen.',
  },
  fi_FI: {
    FACE_TOO_BLURRED: 'Kuva on epätarkka. Pidä puhelin paikallaan ja yritä uudelleen.',
    FACE_TOO_DARK: 'Kasvosi ovat liian tummat. Käänny valoa kohti ja yritä uudelleen.',
    FACE_TOO_BRIGHT: 'Kasvosi ovat ylivalottuneet. Siirry pois suorasta valosta ja yritä uudelleen.',
    FACE_TOO_SMALL: 'Kasvosi ovat kuvassa liian pienet. Tuo puhelin lähemmäs ja yritä uudelleen.',
    FACE_OFF_POSE: 'Katso aluksi suoraan kameraan ja yritä uudelleen.',
    MULTIPLE_FACES: 'Kuvassa on useammat kuin yhdet kasvot. Vain sinä saat näkyä kuvassa; yritä uudelleen.',
    FACE_NOT_FOUND: 'Kasvoja ei löytynyt. Pidä koko kasvosi kuvassa ja yritä uudelleen.',
  },
  et_EE: {
    FACE_TOO_BLURRED: 'Pilt on udune. Hoidke telefoni paigal ja proovige uuesti.',
    FACE_TOO_DARK: 'Teie nägu on liiga tume. Pöörduge valguse poole ja proovige uuesti.',
    FACE_TOO_BRIGHT: 'Teie nägu on üle valgustatud. Liikuge otsesest valgusest eemale ja proovige uuesti.',
    FACE_TOO_SMALL: 'Teie nägu on pildil liiga väike. Hoidke telefoni lähemal ja proovige uuesti.',
    FACE_OFF_POSE: 'Vaadake alguses otse kaamerasse ja proovige uuesti.',
    MULTIPLE_FACES: 'Pildil on rohkem kui üks nägu. Pildil tohite olla ainult teie; proovige uuesti.',
    FACE_NOT_FOUND: 'Nägu ei leitud. Hoidke kogu nägu kaadris ja proovige uuesti.',
  },
  lv_LV: {
    FACE_TOO_BLURRED: 'Attēls ir izplūdis. Turiet tālruni nekustīgi un mēģiniet vēlreiz.',
    FACE_TOO_DARK: 'Jūsu seja ir pārāk tumša. Pagriezieties pret gaismu un mēģiniet vēlreiz.',
    FACE_TOO_BRIGHT: 'Jūsu seja ir pārgaismota. Izvairieties no tiešas gaismas un mēģiniet vēlreiz.',
    FACE_TOO_SMALL: 'Jūsu seja attēlā ir pārāk maza. Turiet tālruni tuvāk un mēģiniet vēlreiz.',
    FACE_OFF_POSE: 'Sākumā skatieties tieši kamerā un mēģiniet vēlreiz.',
    MULTIPLE_FACES: 'Attēlā ir vairāk nekā viena seja. Attēlā drīkstat būt tikai jūs; mēģiniet vēlreiz.',
    FACE_NOT_FOUND: 'Seja netika atrasta. Turiet visu seju kadrā un mēģiniet vēlreiz.',
  },
  de_DE: {
    FACE_TOO_BLURRED: 'Das Bild ist unscharf. Halten Sie das Telefon ruhig und versuchen Sie es erneut.',
    FACE_TOO_DARK: 'Ihr Gesicht ist zu dunkel. Wenden Sie sich dem Licht zu und versuchen Sie es erneut.',
    FACE_TOO_BRIGHT: 'Ihr Gesicht ist überbelichtet. Meiden Sie direktes Licht und versuchen Sie es erneut.',
    FACE_TOO_SMALL: 'Ihr Gesicht ist im Bild zu klein. Halten Sie das Telefon näher und versuchen Sie es erneut.',
    FACE_OFF_POSE: 'Schauen Sie zu Beginn direkt in die Kamera und versuchen Sie es erneut.',
    MULTIPLE_FACES: 'Im Bild ist mehr als ein Gesicht. Nur Sie dürfen zu sehen sein; versuchen Sie es erneut.',
    FACE_NOT_FOUND: 'Es wurde kein Gesicht gefunden. Halten Sie Ihr ganzes Gesicht im Bild und versuchen Sie es erneut.',
  },
  nl_NL: {
    FACE_TOO_BLURRED: 'De foto is onscherp. Houd de telefoon stil en probeer het opnieuw.',
    FACE_TOO_DARK: 'Uw gezicht is te donker. Draai u naar het licht en probeer het opnieuw.',
    FACE_TOO_BRIGHT: 'Uw gezicht is overbelicht. Ga uit direct licht en probeer het opnieuw.',
    FACE_TOO_SMALL: 'Uw gezicht is te klein in beeld. Houd de telefoon dichterbij en probeer het opnieuw.',
    FACE_OFF_POSE: 'Kijk aan het begin recht in de camera en probeer het opnieuw.',
    MULTIPLE_FACES: 'Er staat meer dan één gezicht in beeld. Alleen u mag in beeld zijn; probeer het opnieuw.',
    FACE_NOT_FOUND: 'Er is geen gezicht gevonden. Houd uw hele gezicht in beeld en probeer het opnieuw.',
  },
  fr_FR: {
    FACE_TOO_BLURRED: "L'image est floue. Tenez le téléphone immobile et réessayez.",
    FACE_TOO_DARK: 'Votre visage est trop sombre. Tournez-vous vers la lumière et réessayez.',
    FACE_TOO_BRIGHT: 'Votre visage est surexposé. Éloignez-vous de la lumière directe et réessayez.',
    FACE_TOO_SMALL: 'Votre visage est trop petit dans l’image. Rapprochez le téléphone et réessayez.',
    FACE_OFF_POSE: 'Regardez droit vers la caméra au début, puis réessayez.',
    MULTIPLE_FACES: 'Il y a plus d’un visage dans l’image. Vous seul devez y figurer ; réessayez.',
    FACE_NOT_FOUND: 'Aucun visage n’a été trouvé. Gardez tout votre visage dans le cadre et réessayez.',
  },
};
