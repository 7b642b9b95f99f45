/*
 * How a scheme verified a person, in the terms of OpenID Identity Assurance Schema Definition 1.0 (§5, the
 * `verification` element): what the scheme did and when. What the scheme cannot decide is left to the core: the trust
 * framework and assurance level come from the operator's configuration per scheme (docs/identity-assurance.md), the
 * verified claims from the login's released claims, so that a scheme can neither raise its own standing nor say more
 * than the merchant's scopes allow.
 */

/** A check applied to the evidence (Schema Definition §5.4.4, `check_details`). */
export interface EvidenceCheck {
  /** A predefined check method (CHECK_METHODS). */
  check_method: string;
  /**
   * Resolves, during an audit, to the check in the transaction's evidence report (`<transaction id>.<check>`). The
   * service's own checks always carry it and `time`; an upstream's checks (with `organization`) may lack either (§5.4.4).
   */
  check_id?: string;
  /** ISO 8601 date-time the check completed. */
  time?: string;
  /** The legal entity that performed the check, where it was not the service (an upstream eID's issuer). */
  organization?: string;
}

/** Evidence of type `document` (§5.4.4.1): an identity document the service examined itself. */
export interface DocumentEvidence {
  type: 'document';
  /** Always for the service's own document checks; an upstream's document evidence may name none. */
  check_details?: EvidenceCheck[];
  document_details?: {
    /** A predefined document type (DOCUMENT_TYPES). */
    type: string;
    document_number?: string;
    /** The personal number read from the document; released only to a merchant granted `ssn`. */
    personal_number?: string;
    date_of_issuance?: string;
    date_of_expiry?: string;
    issuer?: { country_code?: string; name?: string; country?: string };
  };
}

/** Evidence of type `electronic_record` (§5.4.4.3): a record another party keeps (a wallet credential, an upstream eID). */
export interface ElectronicRecordEvidence {
  type: 'electronic_record';
  check_details?: EvidenceCheck[];
  record: {
    /** A predefined record type (RECORD_TYPES) or the credential's own type. */
    type: string;
    created_at?: string;
    date_of_expiry?: string;
    source?: { name?: string; country_code?: string; country?: string };
  };
}

export type VerificationEvidence = DocumentEvidence | ElectronicRecordEvidence;

/** What an upstream asserted about its own verification: believed only up to the operator's configuration. */
export interface AssertedFramework {
  trust_framework: string;
  assurance_level?: string;
}

export interface IdentityVerification {
  /** ISO 8601 date-time of the verification (for a reused credential: of the original verification). */
  time: string;
  /** The transaction id an auditor quotes: the one the auth-files evidence report carries, where there is one. */
  process: string;
  /** A test run (test eID, specimen document, customer-test): stated with the test trust framework, never as evidence. */
  test: boolean;
  evidence: VerificationEvidence[];
  /** Set when the login reuses the service's own credential: the verification was made earlier, at `time`. */
  reused?: { credential: string; presentedAt: string };
  /** The upstream's own `verified_claims` framework, when it sent one (validated by the scheme). */
  asserted?: AssertedFramework;
}

/** What a scheme's `verified_claims` can contain, for the provider metadata (IDA 1.0 §7): its evidence and their kinds. */
export interface VerificationOffer {
  evidence: VerificationEvidence['type'][];
  /** Document types (DOCUMENT_TYPES values) of `document` evidence. */
  documents?: readonly string[];
  /** Check methods of `document` evidence (CHECK_METHODS values). */
  documentCheckMethods?: readonly string[];
  /** Record types of `electronic_record` evidence. */
  records?: readonly string[];
}

/**
 * Opt-in capability of a scheme (an EidProvider, or a source of schemes that are data, for all of its schemes): it
 * states how it verified a person, and says what it can state.
 */
export interface StatesVerification {
  readonly verificationOffer: VerificationOffer;
}

export function statesVerification<T extends object>(scheme: T): scheme is T & StatesVerification {
  return typeof (scheme as Partial<StatesVerification>).verificationOffer === 'object';
}
