/** @type {import('jest').Config} */
const project = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  setupFiles: ['reflect-metadata'],
};

/**
 * The contract's REST tests, run a second time with every request going through a facility-ops
 * gateway in front of the instance under test (test/support/http.ts), so the gateway is held to
 * the same answers, byte for byte. Paths under test/, without `.test.ts`.
 */
const THROUGH_THE_GATEWAY = [
  'areas/flippers/flippers.rest',
  'areas/rate-applied-actions/rate-applied-actions.rest',
  'areas/ledgers/ledgers.rest',
  'areas/notes/notes.rest',
  'areas/documents/documents.rest',
  'areas/documents/document-downloads.rest',
  'areas/move-ins/move-ins.rest',
  'areas/invoiceable-items/invoiceable-items.rest',
  'areas/rate-changes/rate-changes.rest',
  'areas/esign/esign.rest',
  'areas/payments/payments.rest',
  'rest/bad-input',
];

module.exports = {
  projects: [
    { ...project, displayName: 'facility-ops' },
    {
      ...project,
      displayName: 'through the gateway',
      testMatch: THROUGH_THE_GATEWAY.map((name) => `<rootDir>/test/${name}.test.ts`),
      setupFiles: ['reflect-metadata', '<rootDir>/test/support/through-gateway.js'],
    },
  ],
  // Generous: the suite must pass on a busy 2-core machine; no test waits on a clock.
  testTimeout: 120000,
  // A failed suite can leave a server or pool its afterAll never reached; the run must still end
  // (with the failures' exit code) rather than wait on them.
  forceExit: true,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
