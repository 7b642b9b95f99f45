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

/** Global pipe: strip nothing silently — unknown fields are refused — and answer 400 with a message per field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    exceptionFactory: (errors) => {
      const fields = fieldMessages(errors);
      const description = Object.entries(fields)
        .map(([f, m]) => `${f}: ${m.join('; ')}`)
        .join('; ');
      return new BadRequestError(description || 'invalid request', fields);
    },
  });
}
