import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { DATE_FORMATS } from '../../mappers/date-format.mapper.js';
import { MAPPER_TYPES } from '../../mappers/index.js';

/**
 * One claim mapper. Which fields a type needs is checked after this (mapperProblems), with a message
 * naming the mapper's position: copy {from}; rename {from, to}; date {from, to, format}; split_name
 * {from, given, family}; join {sources, to, separator?}; constant {to, value}; regex {from, to, pattern, replacement}.
 */
export class ClaimMapperDto {
  @ApiProperty({ enum: MAPPER_TYPES, example: 'date' })
  @IsIn(MAPPER_TYPES)
  type: (typeof MAPPER_TYPES)[number];

  @ApiPropertyOptional({ description: 'upstream claim read (after earlier mappers wrote theirs)', example: 'birthdate' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  from?: string;

  @ApiPropertyOptional({ description: 'claim written (one the broker releases by scope)', example: 'birthdate' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  to?: string;

  @ApiPropertyOptional({ description: 'join: the claims joined, in order', example: ['given_name', 'family_name'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  sources?: string[];

  @ApiPropertyOptional({ enum: DATE_FORMATS, description: 'date: DD.MM.YYYY (spec 2.1) or YYYY-MM-DD (spec 2.4)', example: 'DD.MM.YYYY' })
  @IsOptional()
  @IsIn(DATE_FORMATS)
  format?: (typeof DATE_FORMATS)[number];

  @ApiPropertyOptional({ description: 'split_name: where the given names go', example: 'secondary_identifier' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  given?: string;

  @ApiPropertyOptional({ description: 'split_name: where the family name (the last word) goes', example: 'primary_identifier' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  family?: string;

  @ApiPropertyOptional({ description: 'join: between the parts (default one space)', example: ' ' })
  @IsOptional()
  @IsString()
  @MaxLength(10)
  separator?: string;

  @ApiPropertyOptional({ description: 'constant: the value written', example: 'REMOTE' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  value?: string;

  @ApiPropertyOptional({
    description:
      'regex: pattern (JavaScript syntax, unicode mode, at most 200 characters; no backreferences, lookaround, repeated groups holding a quantifier or alternation, nor more than two unbounded quantifiers: see the README)',
    example: '^NO(\\d{11})$',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  pattern?: string;

  @ApiPropertyOptional({ description: 'regex: replacement, may use $1…', example: '$1' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  replacement?: string;
}
