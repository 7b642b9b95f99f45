import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { Transform } from 'class-transformer';

export interface StringRecordRules {
  maxEntries: number;
  maxValueLength: number;
  /** Keys must match it (they become PDF names and XML element names, so a narrow alphabet). */
  keyPattern: RegExp;
  /** When given, only these keys. */
  allowedKeys?: readonly string[];
}

/** The problem with `value` as an object of string values, or undefined when it is one. */
export function stringRecordProblem(value: unknown, rules: StringRecordRules): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of string values';
  const entries = Object.entries(value);
  if (entries.length > rules.maxEntries) return `at most ${rules.maxEntries} entries`;
  for (const [key, v] of entries) {
    if (rules.allowedKeys && !rules.allowedKeys.includes(key))
      return `unknown key ${JSON.stringify(key.slice(0, 40))}; allowed: ${rules.allowedKeys.join(', ')}`;
    if (!rules.keyPattern.test(key)) return `key ${JSON.stringify(key.slice(0, 40))} must match ${rules.keyPattern.source}`;
    if (typeof v !== 'string') return `${key} must be a string`;
    if (v.length > rules.maxValueLength) return `${key} is longer than ${rules.maxValueLength} characters`;
  }
  return undefined;
}

/** class-validator rule: an object whose values are all strings, within `rules`. */
export function IsStringRecord(rules: StringRecordRules, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isStringRecord',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) => stringRecordProblem(value, rules) === undefined,
        defaultMessage: (args?: ValidationArguments) => `${args?.property}: ${stringRecordProblem(args?.value, rules)}`,
      },
    });
}

/**
 * Spec 4.8 types the flags as booleans while its prose says every value is a string in double quotes:
 * both are accepted. Anything else stays as sent, so @IsBoolean refuses it.
 */
export const BooleanFlag = () => Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value));

/** `encryption-length` as a number or as its decimal string ("128"), for the same reason. */
export const IntegerOrString = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : value));
