/**
 * ICAO 9303-3 three-letter codes -> readable English names, for the interpreted_issuing_country
 * and interpreted_nationality claims.
 *
 * ICAO uses ISO 3166-1 alpha-3 for states, plus its own codes (9303-3 §5): 'D' for Germany, the
 * British nationality variants, United Nations and other issuing organisations, and the codes
 * for stateless persons and refugees. ISO names come from ICU's CLDR data through
 * Intl.DisplayNames (Node ships full ICU), so only the alpha-3 -> alpha-2 mapping is stored here.
 */

/** ISO 3166-1 alpha-3 followed by alpha-2, one state per 5 letters (all 249 officially assigned codes). */
const ISO_ALPHA3_TO_ALPHA2 =
  'AFGAF ALAAX ALBAL DZADZ ASMAS ANDAD AGOAO AIAAI ATAAQ ATGAG ARGAR ARMAM ABWAW AUSAU AUTAT AZEAZ ' +
  'BHSBS BHRBH BGDBD BRBBB BLRBY BELBE BLZBZ BENBJ BMUBM BTNBT BOLBO BESBQ BIHBA BWABW BVTBV BRABR ' +
  'IOTIO BRNBN BGRBG BFABF BDIBI KHMKH CMRCM CANCA CPVCV CYMKY CAFCF TCDTD CHLCL CHNCN CXRCX CCKCC ' +
  'COLCO COMKM COGCG CODCD COKCK CRICR CIVCI HRVHR CUBCU CUWCW CYPCY CZECZ DNKDK DJIDJ DMADM DOMDO ' +
  'ECUEC EGYEG SLVSV GNQGQ ERIER ESTEE ETHET FLKFK FROFO FJIFJ FINFI FRAFR GUFGF PYFPF ATFTF GABGA ' +
  'GMBGM GEOGE DEUDE GHAGH GIBGI GRCGR GRLGL GRDGD GLPGP GUMGU GTMGT GGYGG GINGN GNBGW GUYGY HTIHT ' +
  'HMDHM VATVA HNDHN HKGHK HUNHU ISLIS INDIN IDNID IRNIR IRQIQ IRLIE IMNIM ISRIL ITAIT JAMJM JPNJP ' +
  'JEYJE JORJO KAZKZ KENKE KIRKI PRKKP KORKR KWTKW KGZKG LAOLA LVALV LBNLB LSOLS LBRLR LBYLY LIELI ' +
  'LTULT LUXLU MACMO MKDMK MDGMG MWIMW MYSMY MDVMV MLIML MLTMT MHLMH MTQMQ MRTMR MUSMU MYTYT MEXMX ' +
  'FSMFM MDAMD MCOMC MNGMN MNEME MSRMS MARMA MOZMZ MMRMM NAMNA NRUNR NPLNP NLDNL NCLNC NZLNZ NICNI ' +
  'NERNE NGANG NIUNU NFKNF MNPMP NORNO OMNOM PAKPK PLWPW PSEPS PANPA PNGPG PRYPY PERPE PHLPH PCNPN ' +
  'POLPL PRTPT PRIPR QATQA REURE ROURO RUSRU RWARW BLMBL SHNSH KNAKN LCALC MAFMF SPMPM VCTVC WSMWS ' +
  'SMRSM STPST SAUSA SENSN SRBRS SYCSC SLESL SGPSG SXMSX SVKSK SVNSI SLBSB SOMSO ZAFZA SGSGS SSDSS ' +
  'ESPES LKALK SDNSD SURSR SJMSJ SWZSZ SWESE CHECH SYRSY TWNTW TJKTJ TZATZ THATH TLSTL TGOTG TKLTK ' +
  'TONTO TTOTT TUNTN TURTR TKMTM TCATC TUVTV UGAUG UKRUA AREAE GBRGB USAUS UMIUM URYUY UZBUZ VUTVU ' +
  'VENVE VNMVN VGBVG VIRVI WLFWF ESHEH YEMYE ZMBZM ZWEZW';

const ALPHA2_BY_ALPHA3: ReadonlyMap<string, string> = new Map(ISO_ALPHA3_TO_ALPHA2.split(' ').map((pair) => [pair.slice(0, 3), pair.slice(3, 5)] as const));

const ALPHA3_BY_ALPHA2: ReadonlyMap<string, string> = new Map([...ALPHA2_BY_ALPHA3].map(([alpha3, alpha2]) => [alpha2, alpha3] as const));

/**
 * The ICAO 9303-3 code of an ISO 3166-1 alpha-2 code (what EU wallet credentials carry), so that a nationality or
 * issuing country reads the same whichever scheme vouched for it: ICAO's 'D' for Germany, alpha-3 for the others.
 */
export function icaoCodeOfAlpha2(alpha2: string): string | undefined {
  const key = alpha2.trim().toUpperCase();
  // UT: the specimen state of customer-test's wallet credentials, as UTO (Utopia) is of ICAO's specimen documents.
  return key === 'DE' ? 'D' : key === 'UT' ? 'UTO' : ALPHA3_BY_ALPHA2.get(key);
}

/** ICAO 9303-3 codes that are not ISO 3166-1 alpha-3, with the names ICAO gives them. */
export const ICAO_SPECIAL_CODES: Readonly<Record<string, string>> = Object.freeze({
  D: 'Germany',
  EUE: 'European Union',
  RKS: 'Kosovo',
  GBD: 'British Overseas Territories Citizen',
  GBN: 'British National (Overseas)',
  GBO: 'British Overseas Citizen',
  GBP: 'British Protected Person',
  GBS: 'British Subject',
  UNO: 'United Nations Organization',
  UNA: 'United Nations Specialized Agency',
  UNK: 'United Nations Interim Administration Mission in Kosovo',
  XBA: 'African Development Bank',
  XIM: 'African Export-Import Bank',
  XCC: 'Caribbean Community',
  XCE: 'Council of Europe',
  XCO: 'Common Market for Eastern and Southern Africa',
  XDC: 'Southern African Development Community',
  XEC: 'Economic Community of West African States',
  XES: 'Organisation of Eastern Caribbean States',
  XMP: 'Parliamentary Assembly of the Mediterranean',
  XOM: 'Sovereign Military Order of Malta',
  XPO: 'International Criminal Police Organization (INTERPOL)',
  XXA: 'Stateless person',
  XXB: 'Refugee (1951 Convention)',
  XXC: 'Refugee (other)',
  XXX: 'Unspecified nationality',
});

/**
 * Withdrawn ISO codes still printed on documents that can be read today (mostly expired ones);
 * ICU has no current name for them, so the historical name is given.
 */
export const LEGACY_CODES: Readonly<Record<string, string>> = Object.freeze({
  ANT: 'Netherlands Antilles',
  ROM: 'Romania',
  SCG: 'Serbia and Montenegro',
  YUG: 'Yugoslavia',
  TMP: 'East Timor',
  ZAR: 'Zaire',
  CSK: 'Czechoslovakia',
  SUN: 'Soviet Union',
  DDR: 'German Democratic Republic',
});

/**
 * CLDR's English names are written for menus ("Congo - Kinshasa", "Bosnia & Herzegovina");
 * the claim is a country name in running text, so the few menu-style forms are rewritten.
 */
const NAME_OVERRIDES: Readonly<Record<string, string>> = Object.freeze({
  CD: 'Democratic Republic of the Congo',
  CG: 'Republic of the Congo',
});

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** Every code countryName knows, ISO and ICAO-specific (without filler). */
export function knownCountryCodes(): string[] {
  return [...ALPHA2_BY_ALPHA3.keys(), ...Object.keys(ICAO_SPECIAL_CODES), ...Object.keys(LEGACY_CODES)];
}

/**
 * Readable English name for an ICAO code, or undefined when the code is unknown (the caller
 * then omits the interpreted claim instead of inventing a name). MRZ filler padding is accepted
 * ('D<<' -> Germany) and case is ignored. The ICAO specimen state 'UTO' (Utopia) is deliberately
 * unknown: it is not a real state and no genuine document carries it.
 */
export function countryName(code: string): string | undefined {
  const key = code.replace(/</g, '').trim().toUpperCase();
  const special = ICAO_SPECIAL_CODES[key] ?? LEGACY_CODES[key];
  if (special !== undefined) return special;
  const alpha2 = ALPHA2_BY_ALPHA3.get(key);
  if (alpha2 === undefined) return undefined;
  const override = NAME_OVERRIDES[alpha2];
  if (override !== undefined) return override;
  // fallback 'none' makes ICU return undefined, never the bare code, when it lacks a name.
  return regionNames.of(alpha2)?.replace(/ & /g, ' and ');
}

/**
 * The state's name in another language (CLDR through Intl.DisplayNames), for the evidence report a person reads;
 * the claims keep the English name. English, and ICAO's own or withdrawn codes, give countryName's English name.
 */
export function countryNameIn(code: string, locale: string): string | undefined {
  const key = code.replace(/</g, '').trim().toUpperCase();
  const alpha2 = key === 'D' ? 'DE' : ALPHA2_BY_ALPHA3.get(key);
  if (alpha2 === undefined || locale.toLowerCase().startsWith('en')) return countryName(code);
  return new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' }).of(alpha2) ?? countryName(code);
}
