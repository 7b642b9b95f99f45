import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import type { Messages } from '../../i18n/messages.js';
import { birthDateFromDg11, birthDateFromMrz } from '../../verifier-claims/dates.js';
import { mapVerifierClaims, type VerificationOutcome } from '../../verifier-claims/map-verifier-claims.js';
import { ACR_EIDAS_HIGH, ACR_REQUEST_HIGH } from '../../broker/spi/acr.js';
import { documentKindOf } from '../../broker/spi/request/binding-message.js';
import { documentSubject } from '../../broker/spi/subjects/document-subject.js';
import { EidScheme, type EidProvider, type EidRequest, type EidStep, type SupportsAcr } from '../../broker/spi/eid-provider.js';
import { SPECIMEN_IDENTITIES, type SpecimenIdentity } from '../../verifier-claims/specimen-identities.js';
import { localDate, TEST_EID_MESSAGES } from './test-eid-messages.js';
import { IDENTITY_DOCUMENT_OFFER, identityDocumentEvidence } from '../../broker/spi/identity-assurance/identity-document-evidence.js';
import type { IdentityVerification, StatesVerification } from '../../broker/spi/identity-assurance/identity-verification.js';

/**
 * customer-test only: the tester picks a specimen identity and gets the claim set the document verifier
 * would return for a passing verification (face match level 9, chip and face scan), so a merchant can
 * integrate without a phone. Never registered in production (see EidRegistry and AppModule).
 */
@Injectable()
@EidScheme({ order: 90 })
export class TestEidProvider implements EidProvider, SupportsAcr, StatesVerification {
  readonly id = 'test';
  readonly verificationOffer = IDENTITY_DOCUMENT_OFFER;
  readonly testOnly = true;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  displayName(messages: Messages): string {
    return messages.testEidName;
  }

  /** It simulates a passing document verification, so it answers the levels the verifier does. */
  supportsAcr(acr: string): boolean {
    return acr === ACR_REQUEST_HIGH;
  }

  async start(request: EidRequest): Promise<EidStep> {
    return {
      kind: 'choices',
      title: request.messages.testEidName,
      intro: request.messages.testEidIntro,
      choices: SPECIMEN_IDENTITIES.map((p) => {
        const t = TEST_EID_MESSAGES[request.locale];
        const born = birthDateOf(p, new Date());
        return {
          label: `${p.name} — ${t[p.id]}`,
          detail: born && t.born.replace('{date}', localDate(request.locale, born)),
          fields: { person: p.id },
          data: { person: p.id },
        };
      }),
    };
  }

  async handle(request: EidRequest, input: Record<string, string>): Promise<EidStep> {
    const person = SPECIMEN_IDENTITIES.find((p) => p.id === input.person);
    if (!person) return this.start(request);
    const now = new Date();
    const { holder } = person;
    // As the document verifier: a document of a kind the merchant did not ask for (binding_message
    // ntdr-doc-types, spec 4.7) fails with STATUS_BAD_DOCUMENTTYPE.
    const allowed = request.bindingMessage?.documentKinds;
    const kind = documentKindOf(holder.documentCode);
    const outcome: VerificationOutcome =
      allowed && (kind === 'other' || !allowed.includes(kind))
        ? { result: 'fail', explanations: ['STATUS_BAD_DOCUMENTTYPE'], facematchLevel: 0, sources: ['SDK_NFC'] }
        : { result: 'pass', explanations: [], facematchLevel: 9, sources: ['SDK_NFC', 'SDK_FACESCAN'] };
    const claims = mapVerifierClaims(holder, outcome, now);
    const high = request.acrValues.includes(ACR_REQUEST_HIGH);
    return {
      kind: 'identified',
      identity: {
        subject: documentSubject(this.config.subjectSecret, 'test', holder.issuingState, holder.documentNumber),
        claims,
        birthDate: birthDateOf(person, now),
        acr: high ? ACR_EIDAS_HIGH : undefined,
        amr: ['sc', 'face'],
        authTime: now,
        verification: outcome.result === 'pass' ? simulatedVerification(claims, now) : undefined,
      },
    };
  }
}

/** ISO date of birth, from DG11's full date when the document has one, else the MRZ's. */
function birthDateOf({ holder }: SpecimenIdentity, now: Date): string | undefined {
  return (holder.dg11?.fullDateOfBirth && birthDateFromDg11(holder.dg11.fullDateOfBirth)) || birthDateFromMrz(holder.mrzDateOfBirth, now);
}

/**
 * The verification a passing document verification would state, marked as the test it is (the test trust framework,
 * whatever the configuration): the same shape, so a merchant can build its KYC mapping against it. Nothing was checked;
 * the transaction id starts with `test-` and has no evidence report.
 */
function simulatedVerification(claims: Record<string, unknown>, now: Date): IdentityVerification {
  const transactionId = `test-${randomUUID()}`;
  const time = now.toISOString();
  return {
    time,
    process: transactionId,
    test: true,
    evidence: [identityDocumentEvidence(claims, transactionId, ['passive-authentication', 'chip-authentication', 'face-match', 'liveness'], time)],
  };
}
