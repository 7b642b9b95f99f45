/** Display texts shared by the issuer metadata (OpenID4VCI 1.0 §12.2.4) and the type metadata (SD-JWT VC draft). */

/** The credential's name (and description) in one language (BCP 47 tag). */
export interface LocalizedDisplay {
  locale: string;
  name: string;
  description?: string;
}

/** One claim: its path (OpenID4VCI 1.0 Appendix C, claims path pointer) and its label in each language. */
export interface ClaimDescription {
  path: (string | number | null)[];
  display: { locale: string; name: string; description?: string }[];
  /** SD-JWT VC type metadata: whether the claim is selectively disclosable; default 'always'. */
  sd?: 'always' | 'never';
}
