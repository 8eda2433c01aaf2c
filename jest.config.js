// Three tiers, named by file suffix: unit (pure code), int (adapters, one process), e2e (the real
// app over HTTP). `npm test` runs them all; `jest --selectProjects unit` runs one.

// Dates never depend on the host: every tier runs in UTC. Set here, in the process that reads this
// file, before any worker is forked (workers, and the apps the e2e tier starts, inherit it; a run in
// band uses this process, where Node applies a new TZ at once). test/architecture/timezone.*.spec.ts
// fail in any tier where it does not hold.
process.env.TZ = 'UTC';
const swc = [
  '@swc/jest',
  {
    swcrc: false,
    sourceMaps: 'inline',
    module: { type: 'commonjs' },
    jsc: {
      target: 'es2023',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      keepClassNames: true,
    },
  },
];

const moduleNameMapper = {
  // Test support and contract suites (test/support, test/contracts): never built into dist/.
  '^@app/testing/(.*)$': '<rootDir>/test/$1',
  '^@app/platform$': '<rootDir>/libs/platform/src',
  '^@app/platform/(.*)$': '<rootDir>/libs/platform/src/$1',
  '^@app/access$': '<rootDir>/libs/access/src',
  '^@app/portal$': '<rootDir>/libs/portal/src',
  '^@app/demand$': '<rootDir>/libs/demand/src',
  '^@app/widget$': '<rootDir>/libs/widget/src',
  '^@app/catalog$': '<rootDir>/libs/catalog/src',
  '^@app/supply$': '<rootDir>/libs/supply/src',
  '^@app/matching$': '<rootDir>/libs/matching/src',
  '^@app/trading$': '<rootDir>/libs/trading/src',
  '^@app/live$': '<rootDir>/libs/live/src',
  '^@app/trust$': '<rootDir>/libs/trust/src',
  '^@app/tradegraph$': '<rootDir>/libs/tradegraph/src',
  '^@app/webhooks$': '<rootDir>/libs/webhooks/src',
  '^@app/automations$': '<rootDir>/libs/automations/src',
  '^@app/notifications$': '<rootDir>/libs/notifications/src',
  '^@app/client$': '<rootDir>/libs/client/src',
  // The client's second entry: the node:crypto webhook receiver checks (the main one is browser-safe).
  '^@app/client/webhooks$': '<rootDir>/libs/client/src/webhooks',
  '^@app/contracts$': '<rootDir>/libs/contracts/src',
};

const ESM_PACKAGES = '/node_modules/(@noble/ed25519|canonicalize|qrcode-generator)/';

const tier = (name, suffix, extra = {}) => ({
  displayName: name,
  rootDir: __dirname,
  testEnvironment: 'node',
  // The ESM-only packages (@noble/ed25519, canonicalize, qrcode-generator) are compiled to
  // CommonJS like our own code; Node 24 itself loads them with require(esm) at run time.
  transform: { '^.+\\.ts$': swc, [`${ESM_PACKAGES}.+\\.m?js$`]: swc },
  transformIgnorePatterns: [`/node_modules/(?!(@noble/ed25519|canonicalize|qrcode-generator)/)`],
  moduleNameMapper,
  testMatch: [`<rootDir>/{apps,libs,test,bench}/**/*.${suffix}.spec.ts`],
  ...extra,
});

module.exports = {
  projects: [
    tier('unit', 'unit'),
    tier('int', 'int'),
    tier('e2e', 'e2e', { globalSetup: '<rootDir>/test/global-setup.ts' }),
  ],
  // Generous: a time-out only catches a hang; on a busy machine an e2e suite's app takes a while to start.
  testTimeout: 60000,
  // Node 24 is the runtime (node_modules/.bin/node); TZ pinned above so dates never depend on the host.
};
