import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { BadRequestError } from '../errors/app-error.js';

/** Flattens class-validator's error tree into `field.path -> messages`. */
export function fieldMessages(errors: ValidationError[], parent = ''): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of errors) {
    const path = parent ? `${parent}.${e.property}` : e.property;
    if (e.constraints) out[path] = Object.values(e.constraints);
    Object.assign(out, fieldMessages(e.children ?? [], path));
  }
  return out;
}

/** Enough fields to correct a request by; a refusal never echoes a large body back (unknown keys are named in it). */
const NAMED_FIELDS = 10;
const FIELD_NAME_CHARS = 100;
const MESSAGE_CHARS = 300;
/** Head and tail, so long names that share a beginning stay apart. */
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 20)}…${text.slice(-20)}` : text);

/** The first NAMED_FIELDS fields of `fields`, names and messages clipped, and a description naming them. */
export function describeFieldErrors(fields: Record<string, string[]>): { description: string; fields: Record<string, string[]> } {
  const all = Object.entries(fields);
  const named = all.slice(0, NAMED_FIELDS).map(([f, m]): [string, string[]] => [clip(f, FIELD_NAME_CHARS), m.map((one) => clip(one, MESSAGE_CHARS))]);
  const more = all.length > NAMED_FIELDS ? `; and ${all.length - NAMED_FIELDS} more fields` : '';
  return { description: named.map(([f, m]) => `${f}: ${m.join('; ')}`).join('; ') + more, fields: Object.fromEntries(named) };
}

/** Global pipe: strip nothing silently — unknown fields are refused — and answer 400 with a message per field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    exceptionFactory: (errors) => {
      const { description, fields } = describeFieldErrors(fieldMessages(errors));
      return new BadRequestError(description || 'invalid request', fields);
    },
  });
}
