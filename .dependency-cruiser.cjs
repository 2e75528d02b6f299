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

// One file allowed against the order, each with its reason: { file, to: folders, why }.
const FILE_EXCEPTIONS = [
  {
    file: 'transport/router.ts',
    to: ['load', 'config'],
    why: "The router (undici's Agent to the transports' Pools) sits with the transports but picks each request's target by load/target-choice.ts from the run's --url/--model flags, and hands load/ its slot gate (load/types.ts SlotGate); until those take a settings slice of their own.",
  },
];

/** One rule per layer: nothing in it imports a folder above it (an exception's target excepted). */
function layerRules() {
  const esc = (f) => f.replace(/[.]/g, '\\.');
  const folderRules = LAYERS.map((name, i) => {
    const above = LAYERS.slice(i + 1).filter((to) => !EXCEPTIONS.some((e) => e.from === name && e.to === to));
    const files = FILE_EXCEPTIONS.filter((e) => e.file.startsWith(`${name}/`)).map((e) => `^src/${esc(e.file)}$`);
    return {
      name: `layer-${name}`,
      severity: 'error',
      comment: `${name}/ sits below ${above.join(', ')}: it never imports them (LAYERS in .dependency-cruiser.cjs).`,
      from: { path: `^src/${name}/`, ...(files.length > 0 ? { pathNot: files.join('|') } : {}) },
      to: { path: `^src/(${above.join('|')})/` },
    };
  }).filter((r) => !r.to.path.startsWith('^src/()/'));
  const fileRules = FILE_EXCEPTIONS.map((e) => {
    const name = e.file.split('/')[0];
    const above = LAYERS.slice(LAYERS.indexOf(name) + 1).filter((to) => !e.to.includes(to));
    return {
      name: `layer-${e.file.replace(/[/.]/g, '-')}`,
      severity: 'error',
      comment: `${e.file} imports ${e.to.join(', ')} against the order (${e.why}); nothing else above ${name}/.`,
      from: { path: `^src/${esc(e.file)}$` },
      to: { path: `^src/(${above.join('|')})/` },
    };
  });
  return [...folderRules, ...fileRules];
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
    // run/'s wings (src/run/*/README.md): profile/ → series/ → single/ → pipeline/; merge/ and offline/ beside.
    {
      name: 'run-files-in-wings',
      severity: 'error',
      comment: 'Every file of run/ sits in one of its wings; none at run/ itself.',
      from: { path: '^src/run/[^/]+$' },
      to: {},
    },
    {
      name: 'run-pipeline-stands-alone',
      severity: 'error',
      comment: 'The record pipeline knows nothing of a run: it imports no other wing (the run hands it records, it hands back batches).',
      from: { path: '^src/run/pipeline/' },
      to: { path: '^src/run/', pathNot: '^src/run/pipeline/' },
    },
    {
      name: 'run-offline-stands-alone',
      severity: 'error',
      comment: 'analyze, compare and report read finished runs: they import no other wing of run/.',
      from: { path: '^src/run/offline/' },
      to: { path: '^src/run/', pathNot: '^src/run/offline/' },
    },
    {
      name: 'run-single-below-series',
      severity: 'error',
      comment: 'One run knows nothing of the series, the profile command, merge or the offline commands; it uses the pipeline only.',
      from: { path: '^src/run/single/' },
      to: { path: '^src/run/(profile|series|merge|offline)/' },
    },
    {
      name: 'run-series-below-profile',
      severity: 'error',
      comment: 'A series runs single runs; it imports neither the profile command, merge, offline, nor the pipeline directly.',
      from: { path: '^src/run/series/' },
      to: { path: '^src/run/(profile|merge|offline|pipeline)/' },
    },
    {
      name: 'run-merge-reads-shard-and-report-only',
      severity: 'error',
      comment:
        'merge builds one run out of shard dirs, starting nothing. Exceptions: single/shard-start.ts (the `shard` section it reads back) and single/run-report.ts (report.html, written as a run writes it).',
      from: { path: '^src/run/merge/' },
      to: { path: '^src/run/', pathNot: '^src/run/(merge/|single/(shard-start|run-report)\\.ts$)' },
    },
    {
      name: 'run-profile-is-the-top',
      severity: 'error',
      comment: 'The profile command is the top of run/: no other wing imports it (cli/ does).',
      from: { path: '^src/run/', pathNot: '^src/run/profile/' },
      to: { path: '^src/run/profile/' },
    },
    {
      name: 'run-profile-not-merge-offline',
      severity: 'error',
      comment: 'The profile command runs a benchmark; merge and the offline commands are their own commands.',
      from: { path: '^src/run/profile/' },
      to: { path: '^src/run/(merge|offline)/' },
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
