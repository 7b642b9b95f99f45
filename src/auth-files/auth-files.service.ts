import { Inject, Injectable } from '@nestjs/common';
import { AuditService } from '../admin/audit.service.js';
import { Clock } from '../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../config/load-config.js';
import { logger } from '../common/logging/logger.js';
import type { ClaimLabels } from '../i18n/auth-files-report-messages.js';
import type { MerchantEntity } from '../merchants/merchant.entity.js';
import { MerchantsService } from '../merchants/merchants.service.js';
import { STANDARD_SCOPES } from '../merchants/scopes.js';
import { parseBasicCredentials } from '../common/http/basic-credentials.js';
import { DocumentEvidence } from '../broker/spi/document-evidence/document-evidence.js';
import type { VerificationRecordData } from '../broker/spi/document-evidence/verification-record.js';
import { claimsByScope, VERIFIER_CLAIMS } from '../verifier-claims/claim-table.js';
import { parseAuthFileRequest, type PdfRequest } from './auth-file-request.js';
import { AuthFilesJwtSigner } from './auth-files-jwt.js';
import { AuthFilesError, fileNotProduced, merchantAuthenticationFailed, sourceUnavailable, unknownTransaction } from './auth-files.errors.js';
import type { AuthFileResponseDto, PhotoSource } from './dto/fetch-auth-file.dto.js';
import { photoAsPng, photoForPdf } from './images/photo-files.js';
import { renderEvidenceReport, type EvidenceReport, type ReportLayout } from './pdf/evidence-report.js';
import { reportChecks } from './report/report-checks.js';
import type { ReportAttribute } from './report/report-values.js';
import { PadesSignerService } from './signing/pades-signer.service.js';

const CLAIMS_BY_SCOPE = claimsByScope();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Shown in their own sections of the report (result, face comparison), or not evidence at all (the URL, acr). */
const NOT_ATTRIBUTES = new Set(['facematch_level', 'auth_files_url', 'acr', 'authentication_result', 'result_explanation']);

/**
 * Spec 4.8: the evidence of one document verification as PDF or PNG, for the merchant whose transaction
 * produced it. Reads the sealed record through the document verifier's evidence (broker SPI), never its table.
 */
@Injectable()
export class AuthFilesService {
  constructor(
    private readonly merchants: MerchantsService,
    private readonly evidence: DocumentEvidence,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly jwt: AuthFilesJwtSigner,
    private readonly padesSigner: PadesSignerService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The answer as JSON, or as a signed JWT (a string) when `accept` asks for application/jwt. */
  async fetch(authorization: string | undefined, tid: unknown, body: unknown, accept?: string): Promise<AuthFileResponseDto | string> {
    const credentials = parseBasicCredentials(authorization);
    if (!credentials || !(await this.merchants.verifySecret(credentials.clientId, credentials.secret))) throw merchantAuthenticationFailed();
    const merchant = await this.merchants.findEnabled(credentials.clientId);
    if (!merchant) throw merchantAuthenticationFailed();
    // The body is judged before the tid is looked up, so its answer never depends on whether the tid exists.
    const request = await parseAuthFileRequest(body);
    // Unknown, another merchant's and past retention (spec 1.9) answer alike, by the same path: the owner and the
    // retention are conditions of the query, decided before anything is decrypted, so neither the answer nor its
    // time tells a merchant whether a tid exists for someone else.
    const id = typeof tid === 'string' && UUID.test(tid) ? tid.toLowerCase() : undefined;
    const record = id ? await this.evidence.recordForMerchant(id, merchant.clientId) : undefined;
    if (!id || !record) throw unknownTransaction(`no record of ${merchant.clientId} for this tid (unknown, malformed, another merchant's or past retention)`);

    const response = request.kind === 'png' ? await this.png(record, request.source) : await this.pdf(id, record, request, merchant);
    // The access trail (who fetched what kind of file of which transaction, when); the file itself is never logged or kept.
    await this.audit.recordAccess(`merchant ${merchant.clientId}`, 'merchant', 'auth_files.fetch', 'verification_record', id, {
      type: response['content-type'],
      ...(response['content-format'] ? { format: response['content-format'] } : {}),
      ...(response['content-source'] ? { source: response['content-source'] } : {}),
    });
    return wantsJwt(accept) ? this.jwt.sign(response, merchant.clientId, merchant.idTokenSignedResponseAlg ?? 'RS256', this.clock.now()) : response;
  }

  private async png(record: VerificationRecordData, source: PhotoSource): Promise<AuthFileResponseDto> {
    const png = await produce(() => photoAsPng(pictureOf(record, source)));
    return { 'response-type': 'DATA', png: png.toString('base64'), 'content-type': 'image/png', 'content-source': source };
  }

  private async pdf(tid: string, record: VerificationRecordData, request: PdfRequest, merchant: MerchantEntity): Promise<AuthFileResponseDto> {
    const photos = await Promise.all(
      request.photos
        // Without a face step (the chip failed) there is no selfie: the report then shows the document photo only.
        .filter((kind) => kind === 'document' || record.selfie !== undefined)
        .map(async (kind) => ({ kind, jpeg: await produce(() => photoForPdf(pictureOf(record, kind))) })),
    );
    const faceStepRan = record.selfie !== undefined;
    const report: EvidenceReport = {
      tid,
      result: record.result,
      completedAt: new Date(record.completedAt),
      generatedAt: this.clock.now(),
      issuer: this.config.authFiles.operatorName,
      merchant: merchant.name,
      // Every customer-test report is a test report, whatever document it shows (spec 1.6: test and production differ).
      marks: [...(this.config.isProduction ? [] : (['test'] as const)), ...(isSpecimen(record) ? (['specimen'] as const) : [])],
      attributes: attributesFor(record.claims, releasedScopes(merchant.scope, record.scopes)),
      checks: reportChecks({
        explanations: record.explanations,
        faceStepRan,
        cloneDetection: cloneDetectionOf(record),
        facematchLevel: record.facematchLevel,
        crl: record.crl,
      }),
      facematchLevel: record.facematchLevel,
      validatedLevels: this.evidence
        .matchLevels()
        .levels.filter((l) => l.status === 'validated')
        .map((l) => l.level),
      eidasHigh: record.eidasHigh,
      explanations: record.explanations,
      photos,
      addendum: request.addendum,
    };
    const layout: ReportLayout = {
      locale: request.locale,
      pageSize: request.pageSize,
      metadata: request.metadata,
      encryption: request.encryption,
      pdfA: request.pdfA,
    };
    const made = request.pades ? await this.signed(report, layout) : { pdf: await produce(() => renderEvidenceReport(report, layout)), format: 'PDF' as const };
    return {
      'response-type': 'DATA',
      pdf: made.pdf.toString('base64'),
      'content-type': 'application/pdf',
      'content-format': made.format,
      ...(made.reason ? { 'content-reason': made.reason } : {}),
    };
  }

  /** PAdES B-B; spec 4.8: when signing cannot be done the unsigned PDF is returned, saying why. */
  private async signed(report: EvidenceReport, layout: ReportLayout): Promise<{ pdf: Buffer; format: 'PDF' | 'PADES'; reason?: string }> {
    const signer = await this.padesSigner.current();
    if (signer) {
      try {
        return { pdf: await renderEvidenceReport(report, { ...layout, pades: signer }), format: 'PADES' };
      } catch (err) {
        logger.error({ err }, 'PAdES signing failed: the auth file goes out unsigned');
      }
    }
    const reason = signer ? 'the PDF could not be signed' : 'no PAdES signer is configured on this service';
    return { pdf: await produce(() => renderEvidenceReport(report, layout)), format: 'PDF', reason };
  }
}

/** application/jwt named in Accept (with any parameters or q above 0). */
export function wantsJwt(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((part) => {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    return type.trim() === 'application/jwt' && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
  });
}

function pictureOf(record: VerificationRecordData, source: PhotoSource): Uint8Array {
  const b64 = source === 'document' ? record.documentPhoto : record.selfie;
  if (!b64) throw sourceUnavailable(source);
  return new Uint8Array(Buffer.from(b64, 'base64'));
}

/**
 * The scopes whose claims the report may show: those the login asked for (what its ID token could carry), within
 * the merchant's registered scopes (null: every scope of spec 2.3). A record from before the login's scopes were
 * kept falls back to the merchant's registered scopes.
 */
export function releasedScopes(merchantScope: string | null, loginScopes: string[] | undefined): string[] {
  const registered = merchantScope === null ? [...STANDARD_SCOPES] : merchantScope.split(' ').filter(Boolean);
  return loginScopes ? loginScopes.filter((s) => registered.includes(s)) : registered;
}

/** Country names are shown in the report's language, made from the code they were made from. */
const CODE_OF: Record<string, string> = { interpreted_issuing_country: 'issuing_country', interpreted_nationality: 'nationality' };

/** The spec 2.1 attributes of the record that the scopes release, in the spec's order, as text. */
export function attributesFor(claims: Record<string, unknown>, scopes: string[]): ReportAttribute[] {
  const allowed = new Set(scopes.flatMap((s) => CLAIMS_BY_SCOPE[s] ?? []));
  return VERIFIER_CLAIMS.filter((c) => !NOT_ATTRIBUTES.has(c.oidcName) && allowed.has(c.oidcName) && claims[c.oidcName] !== undefined).map((c) => {
    const value = claims[c.oidcName];
    const code = CODE_OF[c.oidcName] && claims[CODE_OF[c.oidcName]];
    return {
      name: c.oidcName as keyof ClaimLabels,
      value: Array.isArray(value) ? value.join(', ') : String(value),
      ...(typeof code === 'string' ? { code } : {}),
    };
  });
}

/** How the chip proved it is genuine; a record older than that field says only whether no proof was offered. */
function cloneDetectionOf(record: VerificationRecordData): VerificationRecordData['cloneDetection'] {
  if (record.cloneDetection) return record.cloneDetection;
  const sources = record.claims.authentication_sources;
  return Array.isArray(sources) && sources.includes('SDK_NFC_NO_CLONE_PROOF') ? 'none' : undefined;
}

/** A specimen document; a record older than that field is judged by ICAO's specimen state (Utopia). */
function isSpecimen(record: VerificationRecordData): boolean {
  return record.specimen ?? record.claims.issuing_country === 'UTO';
}

/** A picture or report that cannot be made is a 500 in the auth-files shape; the cause goes to the log only. */
async function produce<T>(make: () => Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (e) {
    if (e instanceof AuthFilesError) throw e;
    logger.error({ err: e }, 'auth file could not be produced');
    throw fileNotProduced((e as Error).message);
  }
}
