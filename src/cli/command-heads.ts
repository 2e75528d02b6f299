// Each command's name and one-line description, apart from its module: `servebench --help` lists
// them all, and only the command that runs has its module (and what that imports) loaded.
export const COMMAND_HEADS = {
  profile: { command: 'profile', describe: 'benchmark an OpenAI-compatible server (default: the built-in mock)' },
  analyze: {
    command: 'analyze <records>',
    describe: 'recompute profile_export.json/.csv, histograms.json and the console tables from a records.jsonl',
  },
  compare: {
    command: 'compare <runs..>',
    describe:
      'compare runs: each metric per run (the first is the baseline), the change in % and a verdict (better / worse / within noise)',
  },
  report: {
    command: 'report <dirs..>',
    describe: 'write report.html (plots, offline, self-contained) from run folders; several are overlaid',
  },
  merge: {
    command: 'merge <dirs..>',
    describe: "merge the artifact dirs of a sharded run's shards into one run's exports (records, histograms, report)",
  },
  mock: { command: 'mock', describe: 'Run the built-in OpenAI-compatible mock server' },
  telemetry: { command: 'telemetry', describe: 'show the GPUs whose power and energy servebench can read, and sample them' },
  datasets: { command: 'datasets', describe: 'list the public datasets --public-dataset names, and which are cached' },
  kube: { command: 'kube', describe: 'print the Kubernetes manifests of a run sharded over N pods (kubectl apply -f -)' },
} as const;

export type CommandName = keyof typeof COMMAND_HEADS;
