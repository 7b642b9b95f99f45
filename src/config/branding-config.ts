import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { plainToInstance, Transform } from 'class-transformer';
import { IsOptional, Matches, validateSync } from 'class-validator';
import { ConfigError } from './app-config.js';
import { contrastRatio } from './contrast.js';
import { inspectLogo, type LogoType } from './logo-image.js';

const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/**
 * The operator's look on every page (the merchant's name and logo stay inside the card, as they are): a logo, an
 * accent colour and a contact address beside the privacy notice. Kept apart from app-config.ts: one block, one job.
 */
export class BrandingEnvironmentVariables {
  /** A PNG, JPEG or WebP file (SVG is refused: it can carry scripts), read once at start. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/\S/, { message: 'must be the path of a PNG, JPEG or WebP file' })
  OPERATOR_LOGO_FILE?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^#[0-9a-fA-F]{6}$/, { message: 'must be a colour written #rrggbb' })
  OPERATOR_ACCENT_COLOUR?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^(https:\/\/|mailto:)[^\s"<>]+$/, { message: 'must be an https or mailto: address' })
  OPERATOR_CONTACT_URL?: string;
}

const BRANDING_VARIABLE_NAMES = [
  'OPERATOR_LOGO_FILE',
  'OPERATOR_ACCENT_COLOUR',
  'OPERATOR_CONTACT_URL',
] as const satisfies readonly (keyof BrandingEnvironmentVariables)[];

/** The page background, the lightest colour the accent's text (links in the footer) stands on besides the white card. */
const PAGE_BACKGROUND = '#f4f5f7';
/** WCAG 2.2 success criterion 1.4.3 (AA): text, here links and the white labels of buttons in the accent colour. */
const AA_TEXT_CONTRAST = 4.5;
/** A logo file larger than this is refused: the pages show it at most 12rem × 3rem. */
const LOGO_MAX_BYTES = 256 * 1024;

export interface OperatorLogo {
  bytes: Buffer;
  contentType: LogoType;
  /** Hex SHA-256 of the bytes: the logo's address changes with it, so browsers may keep it for good. */
  sha256: string;
}

export interface Branding {
  /** Shown at the foot of every page when OPERATOR_NAME is set (the default name of evidence reports is not). */
  operatorName?: string;
  logo?: OperatorLogo;
  /** #rrggbb, checked for AA contrast at start. */
  accentColour?: string;
  contactUrl?: string;
}

export function loadBrandingConfig(env: Record<string, string | undefined>): Branding {
  const picked = Object.fromEntries(BRANDING_VARIABLE_NAMES.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));
  const vars = plainToInstance(BrandingEnvironmentVariables, picked);
  const problems = validateSync(vars).map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
  const accent = /^#[0-9a-fA-F]{6}$/.test(vars.OPERATOR_ACCENT_COLOUR ?? '') ? vars.OPERATOR_ACCENT_COLOUR!.toLowerCase() : undefined;
  if (accent) {
    const onWhite = contrastRatio(accent, '#ffffff');
    const onPage = contrastRatio(accent, PAGE_BACKGROUND);
    if (onPage < AA_TEXT_CONTRAST)
      problems.push(
        `OPERATOR_ACCENT_COLOUR: ${accent} reaches ${onWhite.toFixed(2)}:1 against white and ${onPage.toFixed(2)}:1 against the page background ${PAGE_BACKGROUND}; ` +
          `links and white button labels in it need ${AA_TEXT_CONTRAST}:1 (WCAG 2.2 AA, 1.4.3): choose a darker shade`,
      );
  }
  const logo = vars.OPERATOR_LOGO_FILE ? readLogo(vars.OPERATOR_LOGO_FILE, problems) : undefined;
  if (problems.length) throw new ConfigError(problems);
  const name = env.OPERATOR_NAME?.trim();
  return { operatorName: name || undefined, logo, accentColour: accent, contactUrl: vars.OPERATOR_CONTACT_URL };
}

function readLogo(file: string, problems: string[]): OperatorLogo | undefined {
  const path = resolve(file);
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    problems.push(`OPERATOR_LOGO_FILE: no file at ${path}`);
    return undefined;
  }
  if (size > LOGO_MAX_BYTES) {
    problems.push(`OPERATOR_LOGO_FILE: ${path} is ${size} bytes; at most ${LOGO_MAX_BYTES}`);
    return undefined;
  }
  const bytes = readFileSync(path);
  try {
    const { type } = inspectLogo(bytes);
    return { bytes, contentType: type, sha256: createHash('sha256').update(bytes).digest('hex') };
  } catch (e) {
    problems.push(`OPERATOR_LOGO_FILE: ${path} ${(e as Error).message}`);
    return undefined;
  }
}
