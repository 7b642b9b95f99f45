import { applyDecorators } from '@nestjs/common';
import { ValidateBy, ValidateIf } from 'class-validator';

/**
 * For fields that may be left out but have no "unset" state (their columns are NOT NULL): `IsOptional`
 * would let `null` through to the database; here only a missing field skips validation, and `null`
 * answers 400 naming the field.
 */
export function OptionalNotNull(): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_object, value) => value !== undefined),
    ValidateBy({
      name: 'notNull',
      validator: {
        validate: (value) => value !== null,
        defaultMessage: (args) => `${args?.property} cannot be null (leave it out to keep its value)`,
      },
    }),
  );
}
