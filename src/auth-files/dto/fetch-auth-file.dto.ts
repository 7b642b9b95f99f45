import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsIn, IsObject, IsOptional, IsString, Length, ValidateNested } from 'class-validator';
import { REPORT_LOCALES, type ReportLocale } from '../../i18n/auth-files-report-messages.js';
import { BooleanFlag, IntegerOrString, IsStringRecord } from './string-record.js';

export const AUTH_FILE_TYPES = ['application/pdf', 'image/png'] as const;
export const PHOTO_SOURCES = ['document', 'selfie'] as const;
export type PhotoSource = (typeof PHOTO_SOURCES)[number];
export const PAGE_SIZES = ['a4', 'letter'] as const;
/** Spec 4.8: RC4 from 40 to 128 bits in steps of 8, or AES-256. */
export const ENCRYPTION_LENGTHS = [40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128, 256] as const;
export type EncryptionLength = (typeof ENCRYPTION_LENGTHS)[number];
export const PDF_A_MODES = ['PDF/A-1a', 'PDF/A-1b', 'PDF/A-2', 'PDF/A-3'] as const;
export type PdfAMode = (typeof PDF_A_MODES)[number];
/** The nine flags of spec 4.8 that restrict or shape the encryption. */
export const PERMISSION_FLAGS = ['noprint', 'noprinthq', 'nocopy', 'noedit', 'noannotations', 'nofillinforms', 'noaccesscontent', 'noassembledoc'] as const;
export type PermissionFlag = (typeof PERMISSION_FLAGS)[number];

const FLAG_DOC = 'a boolean, or the string "true" or "false" (spec 4.8 documents both)';
/** PDF names and XML element names: a narrow alphabet keeps both safe without escaping the key. */
const KEY = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;

export class AuthFileParamsDto {
  @ApiProperty({ enum: AUTH_FILE_TYPES, example: 'application/pdf' })
  @IsIn(AUTH_FILE_TYPES)
  type: (typeof AUTH_FILE_TYPES)[number];

  @ApiPropertyOptional({ enum: PHOTO_SOURCES, description: 'required for image/png; for a PDF with include-photos, only this photo', example: 'document' })
  @IsOptional()
  @IsIn(PHOTO_SOURCES)
  source?: PhotoSource;

  @ApiPropertyOptional({ description: `PDF: include the document photo and the selfie; ${FLAG_DOC}`, example: true })
  @IsOptional()
  @BooleanFlag()
  @IsBoolean()
  'include-photos'?: boolean;

  @ApiPropertyOptional({ enum: PAGE_SIZES, default: 'a4' })
  @IsOptional()
  @IsIn(PAGE_SIZES)
  pagesize?: (typeof PAGE_SIZES)[number];

  @ApiPropertyOptional({ enum: REPORT_LOCALES, default: 'en-GB', description: 'PDF content language' })
  @IsOptional()
  @IsIn(REPORT_LOCALES)
  locale?: ReportLocale;

  @ApiPropertyOptional({
    description: 'PDF: password to open the file (Latin-1 for RC4 lengths, any text for 256); refused with generate-pades or pdf-a-mode',
    example: 'open-sesame',
  })
  @IsOptional()
  @IsString()
  @Length(1, 127)
  'user-password'?: string;

  @ApiPropertyOptional({
    description: 'PDF: password that opens the file with every permission; refused with generate-pades or pdf-a-mode',
    example: 'owner-secret',
  })
  @IsOptional()
  @IsString()
  @Length(1, 127)
  'owner-password'?: string;

  @ApiPropertyOptional({ description: `PDF: no printing; ${FLAG_DOC}`, example: true })
  @IsOptional()
  @BooleanFlag()
  @IsBoolean()
  noprint?: boolean;

  @ApiPropertyOptional({ description: `PDF: printing in low resolution only; ${FLAG_DOC}`, example: true })
  @IsOptional()
  @BooleanFlag()
  @IsBoolean()
  noprinthq?: boolean;

  @ApiPropertyOptional({ description: `PDF: no copying of text and graphics; ${FLAG_DOC}`, example: true })
  @IsOptional()
  @BooleanFlag()
  @IsBoolean()
  nocopy?: boolean;

  @ApiPropertyOptional({ description: `PDF: no changes to the document; ${FLAG_DOC}`, example: true })
  @IsOptional()
  @BooleanFlag()
  @IsBoolean()
  noedit?: boolean;

  @ApiPropertyOptional({ description: `PDF: no annotations; ${FLAG_DOC}`, example: true })
  @IsOptional()
  @BooleanFlag()
  @IsBoolean()
  noannotations?: boolean;

  @ApiPropertyOptional({ description: `PDF: no filling in of forms; ${FLAG_DOC}`, example: true })
  @IsOptional()
  @BooleanFlag()
  @IsBoolean()
  nofillinforms?: boolean;

  @ApiPropertyOptional({ description: `PDF: no extraction for accessibility; ${FLAG_DOC}`, example: true })
  @IsOptional()
  @BooleanFlag()
  @IsBoolean()
  noaccesscontent?: boolean;

  @ApiPropertyOptional({ description: `PDF: no assembly (insert, rotate, delete pages); ${FLAG_DOC}`, example: true })
  @IsOptional()
  @BooleanFlag()
  @IsBoolean()
  noassembledoc?: boolean;

  @ApiPropertyOptional({ description: `PDF: false leaves the XMP metadata readable without the password; ${FLAG_DOC}`, default: true, example: false })
  @IsOptional()
  @BooleanFlag()
  @IsBoolean()
  'encrypt-metadata'?: boolean;

  @ApiPropertyOptional({ enum: ENCRYPTION_LENGTHS, default: 128, description: 'key bits: 40-128 RC4 (step 8), 256 AES-256; a number or its decimal string' })
  @IsOptional()
  @IntegerOrString()
  @IsIn(ENCRYPTION_LENGTHS, { message: `encryption-length must be one of ${ENCRYPTION_LENGTHS.join(', ')}` })
  'encryption-length'?: EncryptionLength;

  @ApiPropertyOptional({
    enum: PDF_A_MODES,
    description:
      'PDF/A: fonts embedded, XMP identification, sRGB output intent; 1a also tagged (2 and 3 at level B). Refused with passwords or any other encryption',
    example: 'PDF/A-1b',
  })
  @IsOptional()
  @IsIn(PDF_A_MODES)
  'pdf-a-mode'?: (typeof PDF_A_MODES)[number];

  @ApiPropertyOptional({
    description: `request a PAdES B-B signature (not with passwords or any other encryption); when it cannot be applied the unsigned PDF comes with content-format PDF and content-reason; ${FLAG_DOC}`,
    example: false,
  })
  @IsOptional()
  @BooleanFlag()
  @IsBoolean()
  'generate-pades'?: boolean;
}

export class AuthFileMetadataDto {
  @ApiPropertyOptional({
    description: 'Dublin Core: title, creator, subject, description, publisher, rights, …',
    example: { title: 'Identity check', creator: 'Example Shop' },
  })
  @IsOptional()
  @IsStringRecord({
    maxEntries: 15,
    maxValueLength: 1000,
    keyPattern: KEY,
    allowedKeys: [
      'title',
      'creator',
      'subject',
      'description',
      'publisher',
      'contributor',
      'date',
      'type',
      'identifier',
      'source',
      'language',
      'relation',
      'coverage',
      'rights',
    ],
  })
  dc?: Record<string, string>;

  @ApiPropertyOptional({ description: 'XMP basic: CreatorTool, Label, Nickname, BaseURL', example: { Label: 'KYC' } })
  @IsOptional()
  @IsStringRecord({ maxEntries: 4, maxValueLength: 1000, keyPattern: KEY, allowedKeys: ['CreatorTool', 'Label', 'Nickname', 'BaseURL'] })
  xmp?: Record<string, string>;

  @ApiPropertyOptional({ description: 'Adobe PDF schema: Keywords', example: { Keywords: 'kyc, passport' } })
  @IsOptional()
  @IsStringRecord({ maxEntries: 1, maxValueLength: 1000, keyPattern: KEY, allowedKeys: ['Keywords'] })
  pdf?: Record<string, string>;

  @ApiPropertyOptional({
    description: 'custom keys (letters, digits, underscore; up to 40 characters) into the information dictionary and XMP',
    example: { CaseNumber: 'A-123' },
  })
  @IsOptional()
  @IsStringRecord({ maxEntries: 20, maxValueLength: 1000, keyPattern: KEY })
  custom?: Record<string, string>;
}

export class FetchAuthFileDto {
  @ApiProperty({ type: AuthFileParamsDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => AuthFileParamsDto)
  params: AuthFileParamsDto;

  @ApiPropertyOptional({ description: 'merchant-defined attributes printed in the PDF (string values)', example: { order: '4711' } })
  @IsOptional()
  @IsStringRecord({ maxEntries: 30, maxValueLength: 500, keyPattern: /^[^\u0000-\u001f]{1,80}$/ })
  addendum?: Record<string, string>;

  @ApiPropertyOptional({ type: AuthFileMetadataDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AuthFileMetadataDto)
  metadata?: AuthFileMetadataDto;
}

/** The answer of spec 4.8 (200). */
export class AuthFileResponseDto {
  @ApiProperty({ enum: ['DATA'], example: 'DATA' }) 'response-type': 'DATA';
  @ApiPropertyOptional({ description: 'the PDF, Base64', example: 'JVBERi0xLjQKJf////8K' }) pdf?: string;
  @ApiPropertyOptional({ description: 'the PNG, Base64', example: 'iVBORw0KGgoAAAANSUhEUgAA' }) png?: string;
  @ApiProperty({ enum: AUTH_FILE_TYPES }) 'content-type': (typeof AUTH_FILE_TYPES)[number];
  @ApiPropertyOptional({ enum: ['PDF', 'PADES'], description: 'PDF only: the format actually delivered' }) 'content-format'?: 'PDF' | 'PADES';
  @ApiPropertyOptional({ enum: PHOTO_SOURCES, description: 'PNG: which picture' }) 'content-source'?: PhotoSource;
  @ApiPropertyOptional({ description: 'why a requested PAdES signature was not applied', example: 'no PAdES signer is configured on this service' })
  'content-reason'?: string;
}

/** The error object of spec 2.7 for auth-files. */
export class AuthFilesErrorDto {
  @ApiProperty({ enum: ['VOID', 'FAIL', 'RETRY'], example: 'VOID' }) 'response-type': string;
  @ApiProperty({ example: 'UNKNOWN_TRANSACTION' }) 'response-code': string;
  @ApiProperty({ example: 'no auth file is available for this tid' }) 'response-message': string;
  @ApiPropertyOptional({ example: '6f1c2a9e-2b1f-4b44-9d58-0c6f1c0f7a11' }) request_id?: string;
}
