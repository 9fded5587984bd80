const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const boundaries = require('eslint-plugin-boundaries');

/** Imports a layer may not make, by module path pattern (relative paths are matched too). */
const layer = (files, patterns, message) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
  },
});

// The dependency rule: transport -> domain <- store and adapters (docs/architecture.md).
const FRAMEWORKS = [
  'fastify',
  '@fastify/*',
  'graphql',
  'graphql-*',
  'type-graphql',
  '@apollo/*',
  'kysely',
  'pg',
  'better-sqlite3',
  'nodemailer',
  'pdfkit',
  'pdf-lib',
  'ioredis',
];
const OUTSIDE_DOMAIN = [
  '**/store/**',
  '**/upstream/**',
  '**/rest/**',
  '**/graphql/**',
  '**/signing/**',
  '**/adapters/**',
  '**/edge/**',
  '**/presenters/**',
  '**/caching/**',
  '**/auth/**',
  '**/cli/**',
  '**/services',
  '**/config',
  '**/app',
];

/**
 * Every folder of src/ is an element of one kind, and each kind may depend only on the kinds listed
 * (eslint-plugin-boundaries; static, type-only, re-exported and dynamic `import()` alike). A file in
 * no element is an error, so a new folder must be ruled before it lints.
 */
const ELEMENTS = [
  ['domain', 'src/domain/**'],
  ['auth', 'src/auth/**'],
  ['presenters', 'src/presenters/**'],
  ['caching', 'src/caching/**'],
  ['fast-paths', 'src/fast-paths/**'],
  ['store', 'src/store/**'],
  ['adapters', 'src/adapters/**'],
  ['upstream', 'src/upstream/**'],
  ['edge', 'src/edge/**'],
  ['ops', 'src/ops/**'],
  // GraphQL subscriptions: the live events' hub and sources, and their two transports' wiring.
  ['live', 'src/live/**'],
  ['transport', 'src/{rest,graphql,signing}/**'],
  ['cli', 'src/cli/**'],
  // Settings and the logger, read everywhere outside the domain.
  ['settings', 'src/{config,logger}.ts'],
  // The composition root: the wiring of everything else.
  ['root', 'src/{app,services,main,outbox.runtime}.ts'],
];
/** What each kind may import, besides itself. */
const MAY_IMPORT = {
  domain: [],
  // Configuration checks operator-given keys and certificates with the adapters that use them.
  settings: ['domain', 'adapters'],
  auth: ['domain'],
  presenters: ['domain'],
  caching: ['domain'],
  'fast-paths': ['domain', 'store'],
  store: ['domain', 'auth', 'fast-paths'],
  adapters: ['domain'],
  upstream: ['domain', 'auth', 'caching', 'settings'],
  edge: ['domain'],
  ops: ['domain', 'caching', 'store', 'settings'],
  // The journal's SQL and channel (store), and the GraphQL schema and context it serves (transport, root).
  live: ['domain', 'auth', 'edge', 'store', 'settings', 'transport', 'root'],
  // `root` for the Services type the transports receive (one object today).
  transport: ['domain', 'auth', 'presenters', 'caching', 'fast-paths', 'edge', 'ops', 'settings', 'root'],
  cli: ['domain', 'auth', 'store', 'adapters', 'settings', 'root'],
  root: [
    'domain',
    'settings',
    'auth',
    'presenters',
    'caching',
    'fast-paths',
    'store',
    'adapters',
    'upstream',
    'edge',
    'ops',
    'live',
    'transport',
    'cli',
  ],
};
const layerRule = {
  files: ['src/**/*.ts'],
  plugins: { boundaries },
  settings: {
    // Folders match whole paths from the project root; the two single-file kinds need the older
    // `mode: 'full'` (v7 element patterns name folders), whose deprecation notice is silenced.
    'boundaries/elements': ELEMENTS.map(([type, pattern]) =>
      pattern.endsWith('.ts') ? { type, pattern, mode: 'full' } : { type, pattern, partialMatch: false },
    ),
    'boundaries/legacy-warnings': false,
    'boundaries/dependency-nodes': ['import', 'dynamic-import', 'export', 'require'],
    'boundaries/include': ['src/**/*.ts'],
    'boundaries/ignore': ['src/graphql/generated/**'],
    'import/resolver': { node: { extensions: ['.ts', '.js'] } },
  },
  rules: {
    'boundaries/no-unknown-files': 'error',
    'boundaries/no-unknown-dependencies': 'error',
    'boundaries/dependencies': [
      'error',
      {
        default: 'disallow',
        message:
          '{{from.type}} may not import {{to.type}} (see MAY_IMPORT in eslint.config.js, docs/architecture.md)',
        policies: Object.entries(MAY_IMPORT).map(([from, to]) => ({
          from: { element: { type: from } },
          allow: { to: { element: { types: { anyOf: [from, ...to] } } } },
        })),
      },
    ],
  },
};

module.exports = tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'coverage/', 'src/graphql/generated/', 'test/generated/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  layer(
    ['src/domain/**/*.ts'],
    [...FRAMEWORKS, ...OUTSIDE_DOMAIN],
    'The domain depends on nothing outside it: declare a port in the area and implement it in src/store or src/adapters.',
  ),
  layer(
    [
      'src/rest/**/*.ts',
      'src/graphql/**/*.ts',
      'src/signing/**/*.ts',
      'src/edge/**/*.ts',
      'src/caching/**/*.ts',
      'src/auth/**/*.ts',
    ],
    ['**/store/**', '**/adapters/**', '**/upstream/**'],
    'Transports reach data only through the domain services (src/services.ts wires the store and adapters in).',
  ),
  layer(
    ['src/presenters/**/*.ts'],
    [...FRAMEWORKS, '**/rest/**', '**/graphql/**', '**/store/**', '**/adapters/**'],
    'A presenter serves every transport: no transport or framework here.',
  ),
  layer(
    ['src/store/**/*.ts', 'src/adapters/**/*.ts', 'src/upstream/**/*.ts'],
    [
      '**/rest/**',
      '**/graphql/**',
      '**/signing/**',
      '**/edge/**',
      '**/presenters/**',
      '**/cli/**',
      '**/services',
      '**/app',
    ],
    'The store and the adapters implement the domain ports; they know no transport.',
  ),
  layerRule,
  {
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
