// ESLint: typescript-eslint's recommended rules, and the architecture as a rule (eslint-plugin-boundaries):
// imports run one way, down the rooms of docs/architecture.md#rules.
import boundaries from 'eslint-plugin-boundaries';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * The rooms, top to bottom (docs/architecture.md#rules). A room may import itself and any room below it, never one
 * above. Operations sit with the assembly: they observe every room. The broker's SPI (the scheme interface and
 * what it offers schemes) sits below the schemes, the core above them: schemes implement the SPI, the core finds
 * them by their marks.
 */
const ROOMS = [
  ['bootstrap', ['src/bootstrap', 'src/ops']],
  ['front-door', ['src/oidc', 'src/saml', 'src/ciba', 'src/auth-files', 'src/service-docs', 'src/credential-issuer']],
  ['broker', ['src/broker/login', 'src/broker/logins', 'src/broker/schemes']],
  ['scheme', ['src/schemes']],
  ['broker-spi', ['src/broker/spi']],
  ['feature', ['src/merchants', 'src/admin', 'src/verifier-claims']],
  ['platform', ['src/common', 'src/config', 'src/database', 'src/redis', 'src/i18n']],
  ['lib', ['libs']],
];

const elements = ROOMS.flatMap(([type, paths]) => paths.map((path) => ({ type, pattern: path })));
/** Each room's policy: it may depend on itself and every room below it. */
const policies = ROOMS.map(([type], index) => ({
  from: { element: { type } },
  allow: ROOMS.slice(index).map(([lower]) => ({ to: { element: { type: lower } } })),
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
  {
    files: ['src/**/*.ts', 'libs/**/*.ts'],
    rules: {
      // Cyclomatic complexity 20, ESLint's own default and the edge of the band the usual risk tables call complex
      // (21-50): past it a function has more paths than its tests can walk one by one. The few over it say why where
      // they stand (`eslint-disable-next-line complexity -- why`: flat lists of independent checks in a
      // specification's order, a decoder's inner loop); a new one is split, or justified there the same way.
      complexity: ['error', { max: 20 }],
    },
  },
  // Layout is Prettier's (.prettierrc, checked by `npm run lint`); last, so it turns off every stylistic rule above
  // that would argue with it.
  prettier,
);
