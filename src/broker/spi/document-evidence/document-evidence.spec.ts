import type { DiscoveryService } from '@nestjs/core';
import type { Request } from 'express';
import { DocumentEvidence, DocumentEvidenceSource, type DocumentEvidenceProvider } from './document-evidence.js';

/** A discovery that finds the given providers under DocumentEvidenceSource's mark, and nothing under any other. */
const discovering = (...providers: Partial<DocumentEvidenceProvider>[]) =>
  ({
    getProviders: ({ metadataKey }: { metadataKey: string }) => (metadataKey === DocumentEvidenceSource.KEY ? providers.map((instance) => ({ instance })) : []),
    getMetadataByDecorator: () => undefined,
  }) as unknown as DiscoveryService;

describe("front doors' view of the document verifier's evidence", () => {
  it('passes every question to the one provider marked DocumentEvidenceSource', async () => {
    const record = { id: 'rec-1' };
    const provider = {
      schemeId: 'document-verifier',
      record: async (id: string) => (id === 'rec-1' ? record : undefined),
      recordClaims: async (id: string) => (id === 'rec-1' ? { ...record, claimsOnly: true } : undefined),
      recordForMerchant: async (id: string, clientId: string) => (id === 'rec-1' && clientId === 'm_1' ? record : undefined),
      matchLevels: () => ({ engine: 'face-api' }),
      appSessionRecord: async () => ({ recordId: 'rec-1', clientId: 'm_1' }),
    } as unknown as DocumentEvidenceProvider;
    const evidence = new DocumentEvidence(discovering(provider));
    evidence.onModuleInit();
    expect(evidence.schemeId).toBe('document-verifier');
    expect(await evidence.record('rec-1')).toBe(record);
    expect(await evidence.record('rec-2')).toBeUndefined();
    expect(await evidence.recordClaims('rec-1')).toEqual({ id: 'rec-1', claimsOnly: true });
    expect(await evidence.recordClaims('rec-2')).toBeUndefined();
    expect(await evidence.recordForMerchant('rec-1', 'm_2')).toBeUndefined();
    expect(await evidence.recordForMerchant('rec-1', 'm_1')).toBe(record);
    expect(evidence.matchLevels()).toEqual({ engine: 'face-api' });
    expect(await evidence.appSessionRecord({} as Request)).toEqual({ recordId: 'rec-1', clientId: 'm_1' });
  });

  it('refuses two providers at start, and without one says the verifier is not part of this service at each question', () => {
    expect(() => new DocumentEvidence(discovering({}, {})).onModuleInit()).toThrow('2 providers are marked DocumentEvidenceSource; there can be one');
    const none = new DocumentEvidence(discovering());
    none.onModuleInit();
    expect(() => none.schemeId).toThrow('no provider is marked DocumentEvidenceSource');
    expect(() => none.matchLevels()).toThrow('no provider is marked DocumentEvidenceSource');
    expect(() => none.record('rec-1')).toThrow('no provider is marked DocumentEvidenceSource');
  });
});
