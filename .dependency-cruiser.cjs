// Layering and seams (`npm run lint:deps`). Known violations live in .dependency-cruiser-known-violations.json,
// a list that may only shrink: fix one, then `npm run lint:deps:baseline` drops it (and never adds).

/**
 * The backend's layers, lowest first (README Layout): a folder of backend/src imports only its own layer and the
 * ones below, never one above. `auth` and `cli` are entry folders: nothing imports them. The files at the root of
 * backend/src (main.ts, app.module.ts, ...) wire everything. A new folder must be placed here before it can land.
 */
const BACKEND_LAYERS = [
  ['config'],
  ['common'],
  ['storage'],
  ['crypto'],
  ['limits'],
  ['sql-guard'],
  ['demo'],
  ['connections'],
  ['query'],
  ['knowledge'],
  ['llm'],
  ['agent'],
  ['chat'],
  ['auth', 'cli'],
];
const ALL_FOLDERS = BACKEND_LAYERS.flat();

const layerRules = BACKEND_LAYERS.slice(0, -1).map((layer, i) => ({
  name: `backend-layer-${layer.join('-')}`,
  comment: `backend/src/{${layer.join(',')}}/ may not import a higher layer (${BACKEND_LAYERS.slice(i + 1).flat().join(', ')}); see README Layout.`,
  severity: 'error',
  from: { path: `^backend/src/(${layer.join('|')})/` },
  to: { path: `^backend/src/(${BACKEND_LAYERS.slice(i + 1).flat().join('|')})/` },
}));

const entryFolderRules = ['auth', 'cli'].map((folder) => ({
  name: `backend-nothing-imports-${folder}`,
  comment: `backend/src/${folder}/ is an entry folder: only the root files (app.module.ts) import it.`,
  severity: 'error',
  from: { path: '^backend/src/[^/]+/', pathNot: `^backend/src/${folder}/` },
  to: { path: `^backend/src/${folder}/` },
}));

/** A test file or test support of any workspace. */
const TEST_FILE = '(^[^/]+/(test|e2e)/|\\.(spec|test)\\.tsx?$)';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules that import each other cannot be understood, tested or moved one at a time.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    ...entryFolderRules,
    {
      name: 'backend-unlayered-folder',
      comment: 'Every folder of backend/src has a place in BACKEND_LAYERS (.dependency-cruiser.cjs) and the README.',
      severity: 'error',
      from: { path: `^backend/src/(?!(${ALL_FOLDERS.join('|')})/)[^/]+/` },
      to: {},
    },
    {
      name: 'backend-agent-facade',
      comment: 'Outside agent/, the agent is its facade (agent.facade.ts) and its Nest module, nothing else.',
      severity: 'error',
      from: { path: '^backend/src/', pathNot: '^backend/src/agent/' },
      to: { path: '^backend/src/agent/', pathNot: '^backend/src/agent/agent\\.(facade|module)\\.ts$' },
    },
    {
      name: 'frontend-feature-internals',
      comment:
        "A feature imports another feature's components (PascalCase .tsx), contexts (*-context), hooks (use-*) and API " +
        'clients (*-api) only; the rest of a feature (state, helpers, subfolders) is its own.',
      severity: 'error',
      from: { path: '^frontend/src/features/([^/]+)/' },
      to: {
        path: '^frontend/src/features/',
        pathNot: [
          '^frontend/src/features/$1/',
          '^frontend/src/features/[^/]+/([A-Z][^/]*\\.tsx|[^/]*-(context|api)\\.tsx?|use-[^/]*\\.tsx?)$',
        ],
      },
    },
    {
      name: 'no-test-files-from-code',
      comment: 'Code that ships never imports a test, a spec or test support.',
      severity: 'error',
      from: { path: '^(backend/src|frontend/src|contracts/src|test-support/src)/', pathNot: TEST_FILE },
      to: { path: TEST_FILE },
    },
    {
      name: 'no-other-workspace-tests',
      comment: "A workspace never imports another workspace's tests; what tests share lives in test-support/.",
      severity: 'error',
      from: { path: '^([^/]+)/' },
      to: { path: TEST_FILE, pathNot: '^$1/' },
    },
    {
      name: 'workspaces-through-packages',
      comment: 'One workspace reaches another through its package (@aigis/...), never a relative path into it.',
      severity: 'error',
      from: { path: '^(contracts|test-support|backend|frontend)/' },
      to: { path: '^(contracts|test-support|backend|frontend)/(src|test|e2e|bench)/', pathNot: '^$1/' },
    },
  ],
  options: {
    includeOnly: '^(contracts|test-support|backend|frontend)/',
    exclude: { path: '(/dist/|/node_modules/|/test-artifacts/|/\\.bench/)' },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'default'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
