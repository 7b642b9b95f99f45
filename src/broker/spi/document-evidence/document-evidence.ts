import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import type { Request } from 'express';
import { discovered, extensionPoint } from '../../../common/discovery/discovered.js';
import type { EidasHighSetting, MatchLevelsReport } from './match-levels.js';
import type { VerificationRecordClaims, VerificationRecordData } from './verification-record.js';

/**
 * What front doors may ask of the document verifier: the sealed records of its verifications (whole for the evidence
 * report, without images for the credential issuer), what its face match levels are worth (the service documentation), and the verification an
 * app's session ended with (the app's credential offer). The document verifier (a scheme) provides it under the mark
 * below; front doors inject DocumentEvidence and never import the scheme (docs/architecture.md#rules).
 */
export interface DocumentEvidenceProvider {
  /**
   * The verifier's scheme id, as merchants list it in eid_schemes (the credential issuer's sign-in client allows only
   * it; the CIBA app's verifications run under it). Asked of the scheme, so no front door spells it.
   */
  readonly schemeId: string;
  /** The record of `id` within retention, whoever it belongs to, images included. */
  record(id: string): Promise<VerificationRecordData | undefined>;
  /** The same record without its images, which stay sealed: for readers of its claims and verdict (the credential issuer). */
  recordClaims(id: string): Promise<VerificationRecordClaims | undefined>;
  /**
   * The record of `id` for the merchant `clientId` only: another merchant's record, an unknown id and a record past
   * retention all come back undefined, by one path, before anything is decrypted.
   */
  recordForMerchant(id: string, clientId: string): Promise<VerificationRecordData | undefined>;
  matchLevels(): MatchLevelsReport;
  /** The setting that chooses the eIDAS-high level, asked of the scheme so that no front door spells its variable. */
  readonly eidasHighSetting: EidasHighSetting;
  /**
   * The record the verification session named by the app's bearer token ended with, with its merchant; undefined
   * while the session has none (not finished, or failed before a record). Throws the app API's own errors for a
   * missing (401), unknown (404) or expired (410) session token.
   */
  appSessionRecord(req: Request): Promise<{ recordId: string; clientId: string } | undefined>;
}

/** Marks the provider of DocumentEvidenceProvider; there is at most one. */
export const DocumentEvidenceSource = extensionPoint();

/** The document verifier's evidence as front doors inject it: the one provider marked DocumentEvidenceSource. */
@Injectable()
export class DocumentEvidence implements DocumentEvidenceProvider, OnModuleInit {
  private provider?: DocumentEvidenceProvider;

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    const found = discovered<DocumentEvidenceProvider>(this.discovery, DocumentEvidenceSource);
    if (found.length > 1) throw new Error(`${found.length} providers are marked DocumentEvidenceSource; there can be one`);
    this.provider = found[0];
  }

  get schemeId(): string {
    return this.source().schemeId;
  }

  record(id: string): Promise<VerificationRecordData | undefined> {
    return this.source().record(id);
  }

  recordClaims(id: string): Promise<VerificationRecordClaims | undefined> {
    return this.source().recordClaims(id);
  }

  recordForMerchant(id: string, clientId: string): Promise<VerificationRecordData | undefined> {
    return this.source().recordForMerchant(id, clientId);
  }

  matchLevels(): MatchLevelsReport {
    return this.source().matchLevels();
  }

  get eidasHighSetting(): EidasHighSetting {
    return this.source().eidasHighSetting;
  }

  appSessionRecord(req: Request): Promise<{ recordId: string; clientId: string } | undefined> {
    return this.source().appSessionRecord(req);
  }

  private source(): DocumentEvidenceProvider {
    if (!this.provider) throw new Error('no provider is marked DocumentEvidenceSource: the document verifier is not part of this service');
    return this.provider;
  }
}

/** Imported by the front doors that read the document verifier's evidence. */
@Module({ imports: [DiscoveryModule], providers: [DocumentEvidence], exports: [DocumentEvidence] })
export class DocumentEvidenceModule {}
