import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Module } from '@nestjs/common';
import { VerifierClaimsModule } from '../../src/verifier-claims/verifier-claims.module.js';
import { VerifierClaimsService } from '../../src/verifier-claims/verifier-claims.service.js';
import { mapVerifierClaims } from '../../src/verifier-claims/map-verifier-claims.js';
import { claimsByScope } from '../../src/verifier-claims/claim-table.js';

@Module({ imports: [VerifierClaimsModule] })
class HostModule {}

describe('VerifierClaimsModule', () => {
  it('exports a service that delegates to the plain functions', async () => {
    const app = await NestFactory.createApplicationContext(HostModule, { logger: false });
    try {
      const service = app.get(VerifierClaimsService);
      const holder = {
        documentCode: 'P',
        issuingState: 'NOR',
        documentNumber: 'AB1234567',
        mrzName: 'NORDMANN<<OLA',
        nationality: 'NOR',
        mrzDateOfBirth: '900101',
        sex: 'M' as const,
        mrzDateOfExpiry: '300101',
      };
      const outcome = { result: 'pass' as const, explanations: [], facematchLevel: 7, sources: ['SDK_NFC' as const] };
      const now = new Date('2026-11-22T00:00:00Z');
      expect(service.map(holder, outcome, now)).toEqual(mapVerifierClaims(holder, outcome, now));
      expect(service.claimsByScope()).toEqual(claimsByScope());
      expect(service.ageOver(['ageverify18'], '1990-01-01', now)).toEqual({ age_over_18: true });
      expect(service.toSamlAttributes({ birthdate: '01.01.1990' })).toEqual({ DOB: '01.01.1990' });
    } finally {
      await app.close();
    }
  });
});
