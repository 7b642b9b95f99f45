import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DocumentEvidenceSource, type DocumentEvidenceProvider } from '../../../broker/spi/document-evidence/document-evidence.js';
import type { EidasHighSetting, MatchLevelsReport } from '../../../broker/spi/document-evidence/match-levels.js';
import type { VerificationRecordClaims, VerificationRecordData } from '../../../broker/spi/document-evidence/verification-record.js';
import { appSessionOf } from '../app-api/app-session.guard.js';
import { DocumentVerifierVariables } from '../config/verifier-variables.js';
import { VerificationRecordsService } from '../records/verification-records.service.js';
import { VerificationSessionsService } from '../session/verification-sessions.service.js';
import { DOCUMENT_VERIFIER_ID } from './document-verifier.provider.js';
import { MatchLevelsReporter } from './match-levels-report.js';

/** The document verifier's side of DocumentEvidence (broker SPI): what front doors read of it, and nothing more. */
@Injectable()
@DocumentEvidenceSource()
export class VerifierEvidence implements DocumentEvidenceProvider {
  readonly schemeId = DOCUMENT_VERIFIER_ID;
  readonly eidasHighSetting: EidasHighSetting = {
    variable: 'FACEMATCH_MIN_LEVEL_FOR_HIGH',
    defaultLevel: new DocumentVerifierVariables().FACEMATCH_MIN_LEVEL_FOR_HIGH,
  };

  constructor(
    private readonly records: VerificationRecordsService,
    private readonly sessions: VerificationSessionsService,
    private readonly levels: MatchLevelsReporter,
  ) {}

  record(id: string): Promise<VerificationRecordData | undefined> {
    return this.records.get(id);
  }

  recordClaims(id: string): Promise<VerificationRecordClaims | undefined> {
    return this.records.getClaims(id);
  }

  recordForMerchant(id: string, clientId: string): Promise<VerificationRecordData | undefined> {
    return this.records.getForMerchant(id, clientId);
  }

  matchLevels(): MatchLevelsReport {
    return this.levels.report();
  }

  async appSessionRecord(req: Request): Promise<{ recordId: string; clientId: string } | undefined> {
    const session = await appSessionOf(req, this.sessions);
    return session.state === 'completed' && session.recordId ? { recordId: session.recordId, clientId: session.clientId } : undefined;
  }
}
