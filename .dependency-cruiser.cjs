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
