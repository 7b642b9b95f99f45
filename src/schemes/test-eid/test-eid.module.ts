import { Module } from '@nestjs/common';
import { TestEidProvider } from './test-eid.provider.js';

/** The test eID: customer-test only (the app module leaves it out of production, and the registry refuses it there). */
@Module({ providers: [TestEidProvider] })
export class TestEidModule {}
