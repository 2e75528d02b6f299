// Import rules for src/ (npm run check:cycles). Type-only imports count: a type cycle is still a
// cycle in the design, so the TypeScript sources are read before compilation drops them.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
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
