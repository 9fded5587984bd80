const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const path = require('node:path');
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
  '**/gateway/**',
  // The gateway's port is the domain's own (src/gateway/upstream.ports.ts).
  '!**/gateway/upstream.ports',
  '**/rest/**',
  '**/graphql/**',
  '**/signing/**',
  '**/adapters/**',
  '**/edge/**',
  '**/contract/**',
  '**/*.contract',
  '**/caching/**',
  '**/auth/**',
  '**/cli/**',
  '**/*.routes',
  '**/*.resolver',
  '**/*.graphql',
  '**/*.presenter',
  '**/*.repository',
  '**/*.writer',
  '**/*.plan',
  '**/services',
  '**/config',
  '**/settings',
  '**/app',
];

/**
 * An area's files (src/areas/<area>/) are of the kind their suffix names: `.routes` (REST) and
 * `.resolver`/`.graphql`/`.loaders`/`.entities` (GraphQL) are transport, `.presenter` serializes for every transport,
 * `.repository`, `.writer`, `.listings` and `.plan` are the store's; the signing page is e-sign's own transport; every
 * other file of an area is its domain.
 */
const AREA_TRANSPORT = [
  'src/areas/*/*.{routes,resolver,graphql,loaders,entities}.ts',
  'src/areas/esign/signing/**/*.ts',
];
/** An area's module (`<area>.module.ts`): what the kits take of it, listed by the composition root (src/modules.ts). */
const AREA_MODULES = ['src/areas/*/*.module.ts'];
/** An area's kept lists (`<area>.kept.ts`): what its kept answers are checked against. */
const AREA_KEPT = ['src/areas/*/*.kept.ts'];
const AREA_PRESENTERS = ['src/areas/*/*.presenter.ts'];
/**
 * An area's events (`<area>.events.ts`): the types it declares and the functions building their
 * payloads, the records as the contract writes them; the module hands them in, the root wires them.
 */
const AREA_EVENTS = ['src/areas/*/*.events.ts'];
/** An area's store files: its repository and writers, its stored listings, its part of a dataset import (`.plan`). */
const AREA_STORE = ['src/areas/*/*.{repository,writer,listings,plan}.ts'];
/** A record's contract: its TypeBox schema and `toContract`, which REST, the store and webhooks write. */
const CONTRACT = ['src/areas/*/*.contract.ts', 'src/contract/**/*.ts'];
// The live journal's records and ports are declared by the subscriptions kit, which areas implement.
const DOMAIN = [
  'src/areas/**/*.ts',
  'src/kernel/**/*.ts',
  'src/gateway/upstream.ports.ts',
  'src/live/live.{ports,tables}.ts',
];
const NOT_DOMAIN = [
  ...AREA_MODULES,
  ...AREA_KEPT,
  ...AREA_TRANSPORT,
  ...AREA_PRESENTERS,
  ...AREA_EVENTS,
  ...AREA_STORE,
  ...CONTRACT,
];

/**
 * Every file of src/ is an element of one kind, the first whose pattern matches, and each kind may
 * depend only on the kinds listed (eslint-plugin-boundaries; static, type-only, re-exported and
 * dynamic `import()` alike). A file in no element is an error, so a new folder must be ruled before
 * it lints.
 */
const ELEMENTS = [
  ...AREA_MODULES.map((pattern) => ['module', pattern]),
  ...AREA_KEPT.map((pattern) => ['caching', pattern]),
  ...AREA_TRANSPORT.map((pattern) => ['transport', pattern]),
  ...AREA_PRESENTERS.map((pattern) => ['presenters', pattern]),
  ...AREA_EVENTS.map((pattern) => ['events', pattern]),
  ...AREA_STORE.map((pattern) => ['store', pattern]),
  ...CONTRACT.map((pattern) => ['contract', pattern]),
  ...DOMAIN.map((pattern) => ['domain', pattern]),
  // Gateway mode: its upstream client, and GraphQL and REST over it.
  ['upstream', 'src/gateway/{http-upstream,circuit-breaker,cache-policy}.ts'],
  ['transport', 'src/gateway/*.ts'],
  ['auth', 'src/auth/**'],
  ['caching', 'src/caching/**'],
  ['fast-paths', 'src/fast-paths/**'],
  // A migration stays what it was when it ran: it imports kysely and the store's dialect helpers only.
  ['migrations', 'src/store/migrations/*.ts'],
  ['dialect', 'src/store/dialect.ts'],
  ['store', 'src/store/**'],
  ['adapters', 'src/adapters/**'],
  ['telemetry', 'src/telemetry/**'],
  ['edge', 'src/edge/**'],
  ['ops', 'src/ops/**'],
  // GraphQL subscriptions: the live events' hub and sources, and their two transports' wiring.
  ['live', 'src/live/**'],
  ['transport', 'src/{rest,graphql}/**'],
  ['cli', 'src/cli/**'],
  // Settings and the logger, read everywhere outside the domain.
  ['settings', 'src/{config,logger,settings}.ts'],
  // What an area's module is (src/area-module.ts): the kits' shapes it fills in.
  ['area-module', 'src/area-module.ts'],
  // The composition root: the wiring of everything else, and the list of the areas' modules.
  ['root', 'src/{app,services,main,outbox.runtime,modules}.ts'],
];
/** What each kind may import, besides itself. */
const MAY_IMPORT = {
  domain: [],
  'area-module': ['domain', 'transport', 'caching', 'store'],
  // An area's module names its routes, resolvers and records; the root lists the modules.
  module: ['area-module', 'domain', 'transport', 'contract', 'caching', 'store', 'events'],
  dialect: [],
  migrations: ['dialect'],
  // Configuration checks operator-given keys and certificates with the adapters that use them.
  settings: ['domain', 'adapters'],
  auth: ['domain'],
  presenters: ['domain', 'contract'],
  // An event's payload is its record as the contract writes it.
  events: ['domain', 'contract'],
  contract: ['domain'],
  caching: ['domain'],
  'fast-paths': ['domain', 'dialect'],
  // `contract` for the listings the store keeps: the contract's JSON text of a row.
  // `events` for the events a repository makes from its rows (the outbox's delivery changes).
  store: ['domain', 'auth', 'fast-paths', 'contract', 'telemetry', 'dialect', 'migrations', 'events'],
  adapters: ['domain', 'telemetry'],
  // OpenTelemetry glue: spans for whoever makes them, loaded only when tracing is on.
  telemetry: [],
  upstream: ['domain', 'auth', 'caching', 'settings', 'telemetry'],
  edge: ['domain'],
  ops: ['domain', 'caching', 'settings'],
  // The GraphQL schema and context it serves (transport); the journal and its channel come as ports.
  live: ['domain', 'auth', 'edge', 'settings', 'transport'],
  // Not `root`: each transport module names the few services it uses, and the app hands them over.
  transport: [
    'domain',
    'auth',
    'presenters',
    'contract',
    'caching',
    'fast-paths',
    'edge',
    'ops',
    'settings',
    'telemetry',
  ],
  // `transport` for the GraphQL schema and rules trusted documents are checked against when loaded.
  cli: ['domain', 'auth', 'store', 'dialect', 'adapters', 'settings', 'root', 'transport', 'telemetry'],
  root: [
    'module',
    'area-module',
    'domain',
    'settings',
    'auth',
    'presenters',
    'events',
    'contract',
    'caching',
    'fast-paths',
    'store',
    'dialect',
    'adapters',
    'upstream',
    'telemetry',
    'edge',
    'ops',
    'live',
    'transport',
    'cli',
  ],
};
/** The kits: folders of what every area uses, which know no area. */
const KITS = [
  'rest',
  'graphql',
  'store',
  'contract',
  'caching',
  'gateway',
  'ops',
  'kernel',
  'edge',
  'auth',
  'fast-paths',
  'telemetry',
  'live',
];

/**
 * Between areas, only an area's public declarations may be imported: its `*.types.ts` (records,
 * commands), `*.ports.ts` (what it asks of others and what it offers them), `*.events.ts` (the
 * events it reports) and `*.graphql.ts` (its GraphQL object, input and enum types, the classes that
 * `implements` its views). The GraphQL classes are public because, in one graph, a field of one
 * area's type that returns another area's record names that record's class: TypeGraphQL resolves a
 * field's type by class reference, and a type named by string would lose the compile-time link. So
 * a `*.graphql.ts` holds declarations only: its types, the views they implement and how its records
 * map to them (the contract's `present`, as a static of the class); no resolver, service or
 * repository (GRAPHQL_RESOLVING and GRAPHQL_NOT_DECLARATIONS below), and of other areas only what
 * is public. Anything else of an area (its services, repositories, resolvers, contracts) is its
 * own: another area declares the port it needs, and the composition root hands it over. There is
 * no exception.
 */
const AREA_PUBLIC = /\.(types|ports|events|graphql)$/;

/** What makes a resolver (type-graphql's decorators of resolvers and their arguments), refused in `*.graphql.ts`. */
const GRAPHQL_RESOLVING = [
  'Resolver',
  'FieldResolver',
  'Query',
  'Mutation',
  'Subscription',
  'Root',
  'Ctx',
  'Arg',
  'Args',
  'Info',
  'PubSub',
];
/** The files of an area a resolver calls or is, refused in `*.graphql.ts`. */
const GRAPHQL_NOT_DECLARATIONS = [
  '**/*.resolver',
  '**/*.service',
  '**/*.repository',
  '**/*.writer',
  '**/*.loaders',
  '**/*.routes',
  '**/services',
];

/** The rule: an import of `src/areas/<a>/` from `src/areas/<b>/` names a public declaration of <a>. */
const areaImports = {
  meta: {
    type: 'problem',
    messages: {
      private:
        "{{target}} is the {{area}} area's own: import only its *.types, *.ports, *.events or *.graphql, or declare the port you need (docs/architecture.md)",
    },
    schema: [],
  },
  create(context) {
    const file = path.relative(__dirname, context.filename).split(path.sep).join('/');
    const from = /^src\/areas\/([^/]+)\//.exec(file);
    if (!from) return {};
    const check = (node) => {
      const source = node && node.type === 'Literal' && typeof node.value === 'string' ? node.value : null;
      if (!source || !source.startsWith('.')) return;
      const target = path
        .relative(path.join(__dirname, 'src/areas'), path.resolve(path.dirname(context.filename), source))
        .split(path.sep)
        .join('/')
        .replace(/\.ts$/, '');
      if (target.startsWith('..')) return;
      const area = target.split('/')[0];
      if (area === from[1] || AREA_PUBLIC.test(target)) return;
      context.report({ node, messageId: 'private', data: { target, area } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

const layerRule = {
  files: ['src/**/*.ts'],
  plugins: { boundaries },
  settings: {
    // Folders match whole paths from the project root; file patterns need the older `mode: 'full'`
    // (v7 element patterns name folders), whose deprecation notice is silenced.
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
  {
    ...layer(
      DOMAIN,
      [...FRAMEWORKS, ...OUTSIDE_DOMAIN],
      'The domain depends on nothing outside it: declare a port in the area and implement it in its repository or src/adapters.',
    ),
    ignores: NOT_DOMAIN,
  },
  layer(
    [
      ...AREA_TRANSPORT,
      'src/rest/**/*.ts',
      'src/graphql/**/*.ts',
      'src/edge/**/*.ts',
      'src/caching/**/*.ts',
      'src/auth/**/*.ts',
    ],
    [
      '**/store/**',
      '**/adapters/**',
      '**/*.repository',
      '**/*.writer',
      '**/http-upstream',
      '**/circuit-breaker',
    ],
    'Transports reach data only through the domain services (src/services.ts wires the store and adapters in).',
  ),
  layer(
    AREA_EVENTS,
    [
      ...FRAMEWORKS,
      '**/rest/**',
      '**/graphql/**',
      '**/store/**',
      '**/adapters/**',
      '**/*.routes',
      '**/*.resolver',
      '**/*.graphql',
      '**/*.repository',
      '**/*.presenter',
    ],
    "An area's events are declarations and payloads: no transport, store or framework here.",
  ),
  layer(
    AREA_PRESENTERS,
    [
      ...FRAMEWORKS,
      '**/rest/**',
      '**/graphql/**',
      '**/store/**',
      '**/adapters/**',
      '**/*.routes',
      '**/*.resolver',
      '**/*.graphql',
      '**/*.repository',
    ],
    'A presenter serves every transport: no transport or framework here.',
  ),
  layer(
    CONTRACT,
    [
      ...FRAMEWORKS,
      '**/rest/**',
      '**/graphql/**',
      '**/store/**',
      '**/adapters/**',
      '**/*.presenter',
      '**/*.routes',
      '**/*.resolver',
      '**/*.graphql',
      '**/*.repository',
    ],
    'The contract serves every writer of it (REST, the store, webhooks): no transport, store or framework here.',
  ),
  layer(
    [
      ...AREA_STORE,
      'src/store/**/*.ts',
      'src/adapters/**/*.ts',
      'src/gateway/{http-upstream,circuit-breaker,cache-policy}.ts',
    ],
    [
      '**/rest/**',
      '**/graphql/**',
      '**/signing/**',
      '**/edge/**',
      '**/*.presenter',
      '**/*.routes',
      '**/*.resolver',
      '**/*.graphql',
      '**/cli/**',
      '**/services',
      '**/app',
    ],
    'The store and the adapters implement the domain ports; they know no transport.',
  ),
  layerRule,
  {
    // Between areas, only their public declarations (see AREA_PUBLIC above).
    files: ['src/areas/**/*.ts'],
    plugins: { areas: { rules: { 'public-imports': areaImports } } },
    rules: { 'areas/public-imports': 'error' },
  },
  {
    // An area's GraphQL types are public (AREA_PUBLIC), so they are declarations only: no resolver,
    // nor what a resolver calls. A separate rule from the layers' (no-restricted-imports), which it adds to.
    files: ['src/areas/*/*.graphql.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'type-graphql',
              importNames: GRAPHQL_RESOLVING,
              message:
                "An area's *.graphql.ts declares types: resolve fields in its *.resolver.ts (docs/architecture.md).",
            },
          ],
          patterns: [
            {
              group: GRAPHQL_NOT_DECLARATIONS,
              message:
                "An area's *.graphql.ts declares types: resolve fields in its *.resolver.ts (docs/architecture.md).",
            },
          ],
        },
      ],
    },
  },
  {
    // A kit imports no area (type-only imports included): it declares the port or shape it needs,
    // an area fills it in, and the composition root (src/modules.ts, src/services.ts, src/app.ts)
    // wires them. A separate rule from the layers' (no-restricted-imports), which it adds to.
    files: [`src/{${KITS.join(',')}}/**/*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/areas/**'],
              message:
                'A kit imports no area: declare the port it needs here, and let src/modules.ts hand the area in (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    // After the store's rule, which it replaces for migrations: a migration that imported today's
    // application code would run code it was never written with on an old database (issue 42).
    files: ['src/store/migrations/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!kysely$|\\.\\./dialect$|\\./[0-9]{14}_[a-z0-9_]+$)',
              message:
                'A migration imports only kysely, ../dialect and older migrations: copy what it needs into it, frozen (docs/architecture.md#migrations).',
            },
          ],
        },
      ],
    },
  },
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
  {
    // The signing page's script runs in the signer's browser, as a classic script.
    files: ['src/areas/esign/signing/assets/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { window: 'readonly', document: 'readonly' },
    },
  },
);
