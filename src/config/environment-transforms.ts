/** class-transformer steps for environment variables: every value arrives as a string (or not at all). */
export const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : value === true || value === 'true' || value === '1'
      ? true
      : value === 'false' || value === '0'
        ? false
        : value;
export const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value)) ? Number(value) : value;
export const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);
