import type { VerifiedDocument } from './credential-claims.js';
import { credentialContent, credentialValidUntil } from './credential-claims.js';

const NOW = new Date('2026-11-29T12:00:00Z');
const document = (overrides: Partial<VerifiedDocument> = {}): VerifiedDocument => ({
  claims: { document_type: 'PASSPORT', issuing_country: 'NOR', date_of_expiry: '01.01.2034', facematch_level: 8 },
  birthDate: '2010-05-03',
  eidasHigh: true,
  completedAt: '2026-11-20T09:41:07.512Z',
  ...overrides,
});

describe('the credential content: the evidence summary', () => {
  it('states the framework it is given, document evidence, and the verification time to the second in UTC', () => {
    const { claims } = credentialContent(document(), NOW, 'eidas');
    expect(claims).toMatchObject({
      verification_trust_framework: 'eidas',
      verification_evidence_type: 'document',
      verification_time: '2026-11-20T09:41:07Z',
      verified_at: '2026-11-20',
      assurance: 'high',
    });
  });

  it('leaves the time out when the record has none that parses (the framework and evidence stay)', () => {
    const { claims } = credentialContent(document({ completedAt: 'not a time' }), NOW, 'urn:svc:trust-framework:test');
    expect(claims.verification_time).toBeUndefined();
    expect(claims).toMatchObject({ verification_trust_framework: 'urn:svc:trust-framework:test', verification_evidence_type: 'document' });
  });

  it("answers the offer's question, until when a credential could be valid, as the content does", () => {
    // A 16-year-old: the day before the 18th birthday comes before the document's expiry.
    expect(credentialValidUntil(document(), NOW)).toEqual(new Date('2028-05-02T23:59:59Z'));
    expect(credentialValidUntil(document(), NOW)).toEqual(credentialContent(document(), NOW, 'eidas').validUntil);
    expect(credentialValidUntil(document({ birthDate: undefined, claims: {} }), NOW)).toBeUndefined();
  });
});
