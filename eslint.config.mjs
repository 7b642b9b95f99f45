// ESLint: typescript-eslint's recommended rules, and the architecture as a rule (eslint-plugin-boundaries):
// imports run one way, down the rooms of docs/architecture.md#rules.
import boundaries from 'eslint-plugin-boundaries';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * The rooms, top to bottom (docs/architecture.md#rules). A room may import itself and any room below it, never one
 * above. The assembly sits at the top: `main.ts` and `app.module.ts` (files, see ASSEMBLY) and `bootstrap/`, which
 * start the service and list its modules. Operations sit with it: they observe every room. The broker's SPI (the
 * scheme interface and what it offers schemes) sits below the schemes, the core above them: schemes implement the
 * SPI, the core finds them by their marks.
 */
const ROOMS = [
  ['bootstrap', ['src/bootstrap', 'src/ops']],
  ['front-door', ['src/oidc', 'src/saml', 'src/ciba', 'src/auth-files', 'src/service-docs', 'src/credential-issuer']],
  ['broker', ['src/broker/login', 'src/broker/logins', 'src/broker/schemes']],
  // Each folder of src/schemes is an element of its own, named by the folder.
  ['scheme', ['src/schemes/*']],
  ['broker-spi', ['src/broker/spi']],
  ['feature', ['src/merchants', 'src/admin', 'src/verifier-claims']],
  ['platform', ['src/common', 'src/database', 'src/redis', 'src/i18n']],
  // The configuration is read by every room, the platform included, and reads none of them.
  ['config', ['src/config']],
  ['lib', ['libs']],
];
/** The assembly's two files in src/ itself; elements are folders, so they are a file category of the top room. */
const ASSEMBLY = ['src/main.ts', 'src/app.module.ts'];

const elements = ROOMS.flatMap(([type, paths]) => paths.map((path) => ({ type, pattern: path, ...(path.endsWith('/*') ? { capture: ['name'] } : {}) })));
const room = (type) => ({ to: { element: { type } } });
const assembly = { to: { file: { categories: 'assembly' } } };

/**
 * Sideways imports the order of the rooms alone would let through:
 * - a scheme imports no other scheme, only itself (its captured name): what two schemes share lives below them;
 * - a front door reaches a scheme only through the broker's SPI (src/broker/spi), never by importing it.
 */
const NO_SCHEMES = new Set(['scheme', 'front-door']);
const OWN_SCHEME = { to: { element: { type: 'scheme', captured: { name: '{{ from.element.captured.name }}' } } } };

/** Each room's policy: itself and every room below it, less the sideways imports; the assembly's files, the top room. */
const policies = [
  ...ROOMS.map(([type], index) => ({
    from: { element: { type } },
    allow: [
      ...ROOMS.slice(index)
        .filter(([lower]) => !(NO_SCHEMES.has(type) && lower === 'scheme'))
        .map(([lower]) => room(lower)),
      ...(type === 'scheme' ? [OWN_SCHEME] : []),
      ...(type === 'bootstrap' ? [assembly] : []),
    ],
  })),
  { from: { file: { categories: 'assembly' } }, allow: [...ROOMS.map(([type]) => room(type)), assembly] },
];

/** The libraries (libs/*, npm workspaces): imported by package name, and only what their package.json exports. */
const LIBRARIES = ['eu-wallet', 'face', 'icao9303', 'verifier-sdk'];
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
      'boundaries/files': ASSEMBLY.map((pattern) => ({ category: 'assembly', pattern })),
      'import/resolver': { typescript: { alwaysTryTypes: true, project: './tsconfig.json' } },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', policies }],
      // Small files with one job: a file that grows past this is split, not excused.
      'max-lines': ['error', { max: 300 }],
    },
  },
  // The library boundary: no relative path into libs/ from outside, no path from one library into another. A
  // library's own tests live inside it (beside the file they test, or in libs/<name>/test/), so they reach the
  // internals they test by a relative path within the library, which the rule for libs/ below allows.
  { files: ['src/**/*.ts', 'scripts/**/*.{ts,mjs}', 'test/**/*.{ts,mjs}'], rules: libraryRule(intoLibraries(), packageInternals) },
  {
    files: ['libs/**/*.ts'],
    rules: libraryRule({ regex: `^(\\.\\./)+(${LIBRARIES.join('|')})/src(/|$)`, message: PACKAGE_ONLY }, packageInternals),
  },
  // test/ and scripts/ are linted for the library boundary; `any` stays allowed there, as before they were linted, and
  // in every test wherever it lives (a spec beside its file, a library's test/ folder), as it was in test/.
  {
    files: ['test/**/*.{ts,mjs}', 'scripts/**/*.{ts,mjs}', '**/*.spec.ts', 'libs/*/test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
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
