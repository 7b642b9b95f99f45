import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { randomBytes } from 'node:crypto';
import { describeFieldErrors, fieldMessages } from '../common/http/validation.js';
import { DEFAULT_REPORT_LOCALE, type ReportLocale } from '../i18n/auth-files-report-messages.js';
import { invalidAuthFilesRequest } from './auth-files.errors.js';
import { FetchAuthFileDto, PERMISSION_FLAGS, type AuthFileParamsDto, type PdfAMode, type PhotoSource } from './dto/fetch-auth-file.dto.js';
import { RESERVED_INFO_KEYS, type MerchantMetadata } from './pdf/document-metadata.js';
import type { EncryptionSettings } from './pdf/security/standard-security-handler.js';

export interface PdfRequest {
  kind: 'pdf';
  locale: ReportLocale;
  pageSize: 'a4' | 'letter';
  /** The photos to print: none unless include-photos; both, or the one `source` names. */
  photos: PhotoSource[];
  encryption?: EncryptionSettings;
  pades: boolean;
  pdfA?: PdfAMode;
  addendum: [string, string][];
  metadata: MerchantMetadata;
}

export type AuthFileRequest = { kind: 'png'; source: PhotoSource } | PdfRequest;

/** Parameters of spec 4.8 that only a PDF has. */
const PDF_ONLY = [
  'include-photos',
  'pagesize',
  'locale',
  'user-password',
  'owner-password',
  ...PERMISSION_FLAGS,
  'encrypt-metadata',
  'encryption-length',
  'pdf-a-mode',
  'generate-pades',
] as const;

/**
 * The request body of spec 4.8, validated strictly (unknown fields refused, flags as booleans or "true"/"false")
 * and read into what the file needs. Validated here rather than by the global pipe so that a refusal leaves
 * as the auth-files error object (spec 2.7), like every other auth-files answer.
 */
/* eslint-disable-next-line complexity -- the spec 4.8 parameter rules, each a guard that refuses with its own message,
   then the `??` defaults of the PDF request */
export async function parseAuthFileRequest(body: unknown): Promise<AuthFileRequest> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidAuthFilesRequest('the body must be a JSON object with params');
  const dto = plainToInstance(FetchAuthFileDto, body);
  const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
  if (errors.length) {
    throw invalidAuthFilesRequest(describeFieldErrors(fieldMessages(errors)).description);
  }
  const p = dto.params;
  if (p.type === 'image/png') {
    const pdfOnly = PDF_ONLY.filter((k) => p[k] !== undefined);
    if (pdfOnly.length) throw invalidAuthFilesRequest(`params ${pdfOnly.join(', ')} apply to application/pdf only`);
    if (dto.addendum || dto.metadata) throw invalidAuthFilesRequest('addendum and metadata apply to application/pdf only');
    if (!p.source) throw invalidAuthFilesRequest('params.source (document or selfie) is required for image/png');
    return { kind: 'png', source: p.source };
  }
  const reserved = Object.keys(dto.metadata?.custom ?? {}).filter((k) => RESERVED_INFO_KEYS.includes(k));
  if (reserved.length) throw invalidAuthFilesRequest(`metadata.custom may not set ${reserved.join(', ')}: use dc, xmp or pdf`);
  const encryption = encryptionOf(p);
  if (p['generate-pades'] && (p['user-password'] !== undefined || p['owner-password'] !== undefined))
    throw invalidAuthFilesRequest('user-password and owner-password cannot be used with generate-pades (spec 4.8)');
  if (p['generate-pades'] && encryption)
    throw invalidAuthFilesRequest('generate-pades cannot be combined with encryption: leave out the permission flags, encryption-length and encrypt-metadata');
  if (p['pdf-a-mode'] && encryption) throw invalidAuthFilesRequest('PDF/A forbids encryption: leave out pdf-a-mode, or the passwords and permission flags');
  return {
    kind: 'pdf',
    locale: p.locale ?? DEFAULT_REPORT_LOCALE,
    pageSize: p.pagesize ?? 'a4',
    photos: p['include-photos'] ? (p.source ? [p.source] : ['document', 'selfie']) : [],
    encryption,
    pades: p['generate-pades'] ?? false,
    pdfA: p['pdf-a-mode'],
    addendum: Object.entries(dto.addendum ?? {}),
    metadata: { ...dto.metadata },
  };
}

/**
 * Encryption is asked for by a password, a permission flag, encrypt-metadata or encryption-length. Without a
 * user password the file opens without one; without an owner password a random one is set, so the restrictions
 * hold for every reader (otherwise the user password would unlock everything).
 */
function encryptionOf(p: AuthFileParamsDto): EncryptionSettings | undefined {
  const restrictions = new Set(PERMISSION_FLAGS.filter((f) => p[f] === true));
  const asked =
    p['user-password'] !== undefined ||
    p['owner-password'] !== undefined ||
    p['encryption-length'] !== undefined ||
    p['encrypt-metadata'] !== undefined ||
    restrictions.size > 0;
  if (!asked) return undefined;
  const keyBits = p['encryption-length'] ?? 128;
  const encryptMetadata = p['encrypt-metadata'] ?? true;
  if (!encryptMetadata && keyBits !== 128 && keyBits !== 256)
    throw invalidAuthFilesRequest(
      'encrypt-metadata false needs encryption-length 128 or 256 (the PDF standard defines clear-text metadata only with a crypt filter, which readers take as 128 bits for RC4)',
    );
  const userPassword = p['user-password'] ?? '';
  const ownerPassword = p['owner-password'] ?? randomBytes(24).toString('base64url');
  for (const [name, value] of [
    ['user-password', p['user-password']],
    ['owner-password', p['owner-password']],
  ] as const) {
    if (value === undefined) continue;
    if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) throw invalidAuthFilesRequest(`${name} may not contain control characters`);
    if (keyBits !== 256 && /[^\u0000-\u00ff]/.test(value))
      throw invalidAuthFilesRequest(`${name}: RC4 encryption (encryption-length up to 128) takes Latin-1 characters only; use 256 for any text`);
    if (keyBits !== 256 && value.length > 32)
      throw invalidAuthFilesRequest(`${name}: RC4 encryption uses at most 32 characters of a password; use 256 for longer ones`);
  }
  return { userPassword, ownerPassword, keyBits, restrictions, encryptMetadata };
}
