import { AGE_VERIFY_SCOPE } from '../../../verifier-claims/age.js';

/** The credentials the scheme accepts, as a DCQL query names them (OpenID4VP 1.0 §6). */
export const PID_VCT = 'urn:eudi:pid:1';
export const PID_DOCTYPE = 'eu.europa.ec.eudi.pid.1';
export const MDL_DOCTYPE = 'org.iso.18013.5.1.mDL';
const MDL_NAMESPACE = 'org.iso.18013.5.1';

export type WalletCredentialKind = 'pid_sd_jwt' | 'pid_mdoc' | 'mdl';

/** One acceptable credential and the claims the service asks of it, as DCQL claim paths. */
export interface WantedCredential {
  kind: WalletCredentialKind;
  /** DCQL credential query id (the key of its presentations in vp_token). */
  id: string;
  format: 'dc+sd-jwt' | 'mso_mdoc';
  /** `vct` values (SD-JWT VC) or the doctype (mdoc). */
  type: string;
  /** Claim paths: `[name]` or `[name, sub]` for SD-JWT VC, `[namespace, element]` for mdoc. */
  paths: string[][];
}

/** The age thresholds the merchant's ageverifyNN scopes ask about (the digits as written: ageverify05 is "05"). */
export const ageThresholds = (scopes: readonly string[]): string[] => [...new Set(scopes.filter((s) => AGE_VERIFY_SCOPE.test(s)).map((s) => s.slice('ageverify'.length)))];

/** The PID's `age_equal_or_over` keys are the age as a number ("18", "5"); mdoc elements are `age_over_` and two digits (ISO 18013-5 7.2.5). */
export const sdJwtAgeKey = (nn: string): string => String(Number(nn));
export const mdocAgeElement = (nn: string): string => `age_over_${nn.padStart(2, '0')}`;

/**
 * What to ask the wallet for, by the merchant's scopes, and nothing more (data minimisation): every login asks for
 * the issuing country (spec 2.1 releases it with `openid`), the mDL also for its document number (the subject of an
 * mDL login, as of a document verifier login); `profile` asks for names, birth date and nationality; `ageverifyNN`
 * for the age statement alone (`age_equal_or_over.NN` in the SD-JWT VC PID, `age_over_NN` in mdocs), so an
 * `ageverify18` merchant learns that and no birth date. Any one of the three credentials answers.
 */
export function wantedCredentials(scopes: readonly string[]): WantedCredential[] {
  const profile = scopes.includes('profile');
  const ages = profile ? [] : ageThresholds(scopes);
  const sdJwt = [['issuing_country'], ...(profile ? [['family_name'], ['given_name'], ['birthdate'], ['nationalities']] : []), ...ages.map((nn) => ['age_equal_or_over', sdJwtAgeKey(nn)])];
  const mdocElements = (ns: string, extra: string[]) => [...extra, ...(profile ? ['family_name', 'given_name', 'birth_date'] : []), ...ages.map(mdocAgeElement)].map((e) => [ns, e]);
  return [
    { kind: 'pid_sd_jwt', id: 'pid_sd_jwt', format: 'dc+sd-jwt', type: PID_VCT, paths: sdJwt },
    { kind: 'pid_mdoc', id: 'pid_mdoc', format: 'mso_mdoc', type: PID_DOCTYPE, paths: mdocElements(PID_DOCTYPE, ['issuing_country', ...(profile ? ['nationality'] : [])]) },
    { kind: 'mdl', id: 'mdl', format: 'mso_mdoc', type: MDL_DOCTYPE, paths: mdocElements(MDL_NAMESPACE, ['issuing_country', 'document_number']) },
  ];
}
