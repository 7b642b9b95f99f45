import { registerDecorator, type ValidationOptions } from 'class-validator';

/**
 * Shape of a redirect URI (RFC 6749 §3.1.2): absolute http(s) URL without a fragment. Whether plain
 * http is allowed depends on the environment and is checked by the merchant policy, not here.
 */
export function isRedirectUriShape(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2000) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !value.includes('#') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

export function IsRedirectUri(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isRedirectUri',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'each redirect URI must be an absolute http(s) URL without fragment or credentials', ...options },
      validator: { validate: isRedirectUriShape },
    });
}
