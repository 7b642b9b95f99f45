// ESLint: typescript-eslint's recommended rules, and the architecture as a rule (eslint-plugin-boundaries):
// imports run one way, down the rooms of docs/architecture.md#rules.
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/**
 * The rooms, top to bottom (docs/architecture.md#rules). A room may import itself and any room below it, never one
 * above. The assembly (`main.ts`, `app.module.ts`, `bootstrap/`) is the top room: it starts the service and lists
 * every module. Operations sit with it: they observe every room. The broker's SPI (the scheme interface and what it
 * offers schemes) sits below the schemes, the core above them: schemes implement the SPI, the core finds them by
 * their marks.
 */
const ROOMS = [
  ['bootstrap', ['src/main.ts', 'src/app.module.ts', 'src/bootstrap', 'src/ops']],
  ['front-door', ['src/oidc', 'src/saml', 'src/ciba', 'src/auth-files', 'src/service-docs', 'src/credential-issuer']],
  ['broker', ['src/broker/login', 'src/broker/logins', 'src/broker/schemes']],
  ['scheme', ['src/schemes/*']],
  ['broker-spi', ['src/broker/spi']],
  ['feature', ['src/merchants', 'src/admin', 'src/verifier-claims']],
  ['platform', ['src/common', 'src/config', 'src/database', 'src/redis', 'src/i18n']],
  ['lib', ['libs']],
];

/** A file is its own element (main.ts, app.module.ts); a folder's files belong to the folder's element. */
const descriptor = (type, path) =>
  path.endsWith('.ts') ? { type, pattern: path, mode: 'file' } : path.endsWith('/*') ? { type, pattern: path, capture: ['name'] } : { type, pattern: path };
const elements = ROOMS.flatMap(([type, paths]) => paths.map((path) => descriptor(type, path)));

/**
 * Sideways imports the order of the rooms alone would let through:
 * - a scheme imports no other scheme (each folder of src/schemes is its own element, by its captured name): what two
 *   schemes share lives below them;
 * - a front door reaches a scheme only through the broker's SPI (src/broker/spi), never by importing it.
 */
const SIDEWAYS = {
  scheme: [{ to: { element: { type: 'scheme', captured: { name: '{{ from.element.captured.name }}' } } } }],
  'front-door': [],
};
/** Each room's policy: it may depend on itself and every room below it, less the sideways imports above. */
const policies = ROOMS.map(([type], index) => ({
  from: { element: { type } },
  allow: ROOMS.slice(index)
    .filter(([lower]) => !(type in SIDEWAYS && lower === 'scheme'))
    .map(([lower]) => ({ to: { element: { type: lower } } }))
    .concat(SIDEWAYS[type] ?? []),
}));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.cache/**', 'data/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts', 'libs/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elements,
      'import/resolver': { typescript: { alwaysTryTypes: true, project: './tsconfig.json' } },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', policies }],
      // Small files with one job: a file that grows past this is split, not excused.
      'max-lines': ['error', { max: 300 }],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
);
