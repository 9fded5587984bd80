const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

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
