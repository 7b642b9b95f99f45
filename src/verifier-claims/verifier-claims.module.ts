import { Module } from '@nestjs/common';
import { VerifierClaimsService } from './verifier-claims.service.js';

/** Provides VerifierClaimsService; the mapping itself lives in plain functions (see index.ts). */
@Module({ providers: [VerifierClaimsService], exports: [VerifierClaimsService] })
export class VerifierClaimsModule {}
