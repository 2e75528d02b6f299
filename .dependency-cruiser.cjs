// Import rules for src/ (npm run check:cycles). Type-only imports count: a type cycle is still a
// cycle in the design, so the TypeScript sources are read before compilation drops them.

// The layers of src/, bottom to top (docs/ARCHITECTURE.md, "Layers"). A folder imports only itself
// and the folders before it; the rules below are generated from this list, so a new folder is one
// entry here. `model/` is the ground floor (the shared vocabulary: it imports nothing else of src/);
// the root files (errors.ts, secrets.ts, warnings.ts, timers.ts, version.ts, native*.ts) sit on it
// and import only `model/`. `config/` is the assembly layer: it reads every feature's flags into
// RunConfig, from option types that live in each feature's own folder, so no feature imports it.
// mock/ and kube/ stand beside the layers (their own rules at the end).
const LAYERS = [
  'hub',
  'tokenizer',
  'endpoints',
  'dataset',
  'transport',
  'metrics',
  'records',
  'telemetry',
  'export',
  'server-metrics',
  'timeslices',
  'report',
  'compare',
  'load',
  'harness',
  'ui',
  'config',
  'run',
  'cli',
];

// Imports allowed against the order, each with its reason: { from: folder, to: folder, why }. None today.
const EXCEPTIONS = [];

/** One rule per layer: nothing in it imports a folder above it (an exception's target excepted). */
function layerRules() {
  return LAYERS.map((name, i) => {
    const above = LAYERS.slice(i + 1).filter((to) => !EXCEPTIONS.some((e) => e.from === name && e.to === to));
    return {
      name: `layer-${name}`,
      severity: 'error',
      comment: `${name}/ sits below ${above.join(', ')}: it never imports them (LAYERS in .dependency-cruiser.cjs).`,
      from: { path: `^src/${name}/` },
      to: { path: `^src/(${above.join('|')})/` },
    };
  }).filter((r) => !r.to.path.startsWith('^src/()/'));
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'model-is-the-ground-floor',
      severity: 'error',
      comment: 'model/ (the vocabulary every stage shares) imports nothing of src/ outside it.',
      from: { path: '^src/model/' },
      to: { path: '^src/', pathNot: '^src/model/' },
    },
    {
      name: 'root-files-on-the-ground-floor',
      severity: 'error',
      comment: 'The root files (errors.ts, secrets.ts, native.ts, …) import only model/ and each other.',
      from: { path: '^src/[^/]+$' },
      to: { path: '^src/[^/]+/', pathNot: '^src/model/' },
    },
    ...layerRules(),
    {
      name: 'mock-stands-apart',
      severity: 'error',
      comment: 'mock/ is a server of its own (servebench mock, the tests): it reads the root files only.',
      from: { path: '^src/mock/' },
      to: { path: '^src/[^/]+/', pathNot: '^src/mock/' },
    },
    {
      name: 'mock-only-from-cli-and-run',
      severity: 'error',
      comment: 'Only cli/ (the mock command) and run/ (a run without --url starts it) import mock/.',
      from: { path: '^src/', pathNot: '^src/(mock|cli|run)/' },
      to: { path: '^src/mock/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles between files, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'metrics-core-is-the-bottom',
      severity: 'error',
      comment: 'metrics/core/ (types, registry, units, statistics) imports no metric family and no top file.',
      from: { path: '^src/metrics/core/' },
      to: { path: '^src/metrics/', pathNot: '^src/metrics/core/' },
    },
    {
      name: 'metrics-families-not-the-top',
      severity: 'error',
      comment: 'A metric family reads metrics/core/ and other families, never the catalogue, conventions or summary on top.',
      from: { path: '^src/metrics/families/' },
      to: { path: '^src/metrics/[^/]+$' },
    },
    {
      name: 'no-export-from-below',
      severity: 'error',
      comment: 'export/ sits above metrics/ and records/: they never import it.',
      from: { path: '^src/(metrics|records)/' },
      to: { path: '^src/export/' },
    },
    {
      name: 'no-run-wiring-from-below',
      severity: 'error',
      comment: 'run/ wires a run together; only cli/ (and run/ itself) import it.',
      from: { path: '^src/', pathNot: '^src/(run|cli)/' },
      to: { path: '^src/run/' },
    },
    {
      name: 'no-cli-from-below',
      severity: 'error',
      comment: 'cli/ is the top: nothing under src/ outside it imports it.',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'kube-stands-apart',
      comment: 'kube/ (the manifests of `servebench kube`) is read by cli/ only, and reads nothing of a run but errors.ts.',
      severity: 'error',
      from: { path: '^src/kube/' },
      to: { path: '^src/', pathNot: '^src/(kube/|errors\\.ts$)' },
    },
    {
      name: 'kube-only-from-cli',
      severity: 'error',
      comment: 'Only cli/ (and kube/ itself) import kube/.',
      from: { path: '^src/', pathNot: '^src/(kube|cli)/' },
      to: { path: '^src/kube/' },
    },
    {
      name: 'hub-sits-low',
      severity: 'error',
      comment:
        'hub/ (the Hugging Face Hub and its cache) sits under tokenizer/ and dataset/: it reads only root files (errors.ts, secrets.ts, version.ts).',
      from: { path: '^src/hub/' },
      to: { path: '^src/', pathNot: '^src/(hub/|[^/]+\\.ts$)' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to no file (a path left stale by a move) would hide its edge from the rules above.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
