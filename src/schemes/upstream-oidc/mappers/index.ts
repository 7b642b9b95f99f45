import { claimsByScope } from '../../../verifier-claims/claim-table.js';
import type { ClaimMapper } from './claim-mapper.js';
import { ConstantMapper } from './constant.mapper.js';
import { CopyClaimMapper } from './copy-claim.mapper.js';
import { DATE_FORMATS, type DateFormat, DateFormatMapper } from './date-format.mapper.js';
import { JoinNamesMapper } from './join-names.mapper.js';
import { RegexMapper } from './regex.mapper.js';
import { regexPatternProblem } from './regex-safety.js';
import { RenameClaimMapper } from './rename-claim.mapper.js';
import { SplitNameMapper } from './split-name.mapper.js';

export type { ClaimMapper } from './claim-mapper.js';

export const MAPPER_TYPES = ['copy', 'rename', 'date', 'split_name', 'join', 'constant', 'regex'] as const;
export type MapperType = (typeof MAPPER_TYPES)[number];

/** One mapper as configured (admin API and the `eid_schemes.claim_mappers` column alike). */
export interface ClaimMapperConfig {
  type: MapperType;
  from?: string;
  to?: string;
  sources?: string[];
  format?: DateFormat;
  given?: string;
  family?: string;
  separator?: string;
  value?: string;
  pattern?: string;
  replacement?: string;
}

/**
 * The claims a mapper may write: those the broker releases by scope (spec 2.1 and the standard ones), less
 * what the broker itself decides (`sub`, `acr`, `age_over_NN`): a claim outside the table would never
 * reach a merchant, so it is refused when configured rather than dropped silently at every login.
 */
const WRITABLE = new Set(
  Object.values(claimsByScope({ ageVerifyScopes: [] }))
    .flat()
    .filter((c) => c !== 'sub' && c !== 'acr'),
);
const CLAIM_NAME = /^[A-Za-z0-9_.:-]{1,100}$/;

/** Problems of a mapper list, by field path (`claim_mappers.2.to`), for the admin API's 400. */
export function mapperProblems(configs: readonly ClaimMapperConfig[]): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const add = (i: number, field: string, message: string) => (problems[`claim_mappers.${i}.${field}`] ??= []).push(message);
  configs.forEach((c, i) => {
    const need = (field: keyof ClaimMapperConfig) => {
      if (typeof c[field] !== 'string' || c[field] === '') add(i, field, `${field} is required for a ${c.type} mapper`);
    };
    const upstreamName = (field: 'from') => {
      need(field);
      if (c[field] && !CLAIM_NAME.test(c[field]!)) add(i, field, `${field} must be a claim name`);
    };
    const target = (field: 'to' | 'given' | 'family', value = c[field]) => {
      if (typeof value !== 'string' || value === '') return add(i, field, `${field} is required for a ${c.type} mapper`);
      if (!WRITABLE.has(value)) add(i, field, `${value} is not a claim the broker releases (one of: ${[...WRITABLE].join(', ')})`);
    };
    switch (c.type) {
      case 'copy':
        upstreamName('from');
        if (c.from) target('to', c.from);
        break;
      case 'rename':
        upstreamName('from');
        target('to');
        break;
      case 'date':
        upstreamName('from');
        target('to');
        if (!DATE_FORMATS.includes(c.format as DateFormat)) add(i, 'format', `format must be one of ${DATE_FORMATS.join(', ')}`);
        break;
      case 'split_name':
        upstreamName('from');
        target('given');
        target('family');
        break;
      case 'join':
        if (!c.sources?.length || c.sources.some((s) => !CLAIM_NAME.test(s))) add(i, 'sources', 'sources must list claim names');
        target('to');
        break;
      case 'constant':
        target('to');
        need('value');
        break;
      case 'regex':
        upstreamName('from');
        target('to');
        need('pattern');
        if (c.replacement === undefined) add(i, 'replacement', 'replacement is required for a regex mapper');
        if (c.pattern) {
          const problem = regexPatternProblem(c.pattern);
          if (problem) add(i, 'pattern', problem);
        }
        break;
      default:
        add(i, 'type', `type must be one of ${MAPPER_TYPES.join(', ')}`);
    }
  });
  return problems;
}

/** The mapper classes for a (validated) configuration, in order. */
export function createMappers(configs: readonly ClaimMapperConfig[]): ClaimMapper[] {
  return configs.map((c) => {
    switch (c.type) {
      case 'copy':
        return new CopyClaimMapper(c.from!);
      case 'rename':
        return new RenameClaimMapper(c.from!, c.to!);
      case 'date':
        return new DateFormatMapper(c.from!, c.to!, c.format!);
      case 'split_name':
        return new SplitNameMapper(c.from!, c.given!, c.family!);
      case 'join':
        return new JoinNamesMapper(c.sources!, c.to!, c.separator ?? ' ');
      case 'constant':
        return new ConstantMapper(c.to!, c.value!);
      case 'regex':
        return new RegexMapper(c.from!, c.to!, c.pattern!, c.replacement!);
    }
  });
}

/** Runs the mappers in order over the upstream claims. */
export function mapClaims(
  mappers: readonly ClaimMapper[],
  upstream: Readonly<Record<string, unknown>>,
): { claims: Record<string, unknown>; birthDate?: string } {
  const out = { claims: {} as Record<string, unknown>, birthDate: undefined as string | undefined };
  for (const m of mappers) m.apply(upstream, out);
  return out;
}
