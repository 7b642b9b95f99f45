// ESLint: typescript-eslint's recommended rules, and the architecture as a rule (eslint-plugin-boundaries):
// imports run one way, down the rooms of docs/architecture.md#rules.
import boundaries from 'eslint-plugin-boundaries';
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

/** The libraries (libs/*, npm workspaces): imported by package name, and only what their package.json exports. */
const LIBRARIES = ['eu-wallet', 'face', 'icao9303', 'verifier-sdk'];
/** A library's own unit tests, in test/<folder>, test its internals too. */
const LIBRARY_TESTS = { icao: 'icao9303', face: 'face', 'eu-wallet': 'eu-wallet' };
const PACKAGE_ONLY = 'import a library by its package name (@identity-broker/<name>): only what its package.json exports is its API';
/** A package's subpaths other than its exports ("." and face's "./calibration") do not resolve; said here too. */
const packageInternals = { regex: '^@identity-broker/(?!face/calibration$)[^/]+/', message: PACKAGE_ONLY };
const intoLibraries = (except) => ({ regex: `(^|/)libs/${except ? `(?!${except}/)` : ''}`, message: PACKAGE_ONLY });
const libraryRule = (...patterns) => ({ '@typescript-eslint/no-restricted-imports': ['error', { patterns }] });

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
  // The library boundary: no relative path into libs/ from outside, no path from one library into another.
  { files: ['src/**/*.ts', 'scripts/**/*.{ts,mjs}', 'test/**/*.{ts,mjs}'], rules: libraryRule(intoLibraries(), packageInternals) },
  ...Object.entries(LIBRARY_TESTS).map(([folder, library]) => ({
    files: [`test/${folder}/**/*.ts`],
    rules: libraryRule(intoLibraries(library), packageInternals),
  })),
  {
    files: ['libs/**/*.ts'],
    rules: libraryRule({ regex: `^(\\.\\./)+(${LIBRARIES.join('|')})/src(/|$)`, message: PACKAGE_ONLY }, packageInternals),
  },
  // test/ and scripts/ are linted for the library boundary; `any` stays allowed there, as before they were linted.
  { files: ['test/**/*.{ts,mjs}', 'scripts/**/*.{ts,mjs}'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
);
