// `servebench datasets`: the public-dataset registry (--public-dataset NAME): each entry's name,
// repo, rows, what it exercises and whether it is in the local cache (looked up offline).
import type { CommandModule } from 'yargs';
import { isCached } from '../dataset/public/cached.js';
import { PUBLIC_DATASETS } from '../dataset/public/registry.js';

interface DatasetsArgs {
  json?: boolean;
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((v, c) => (c === r.length - 1 ? v : v.padEnd(widths[c]))).join('  ')).join('\n');
}

export const datasetsCommand: CommandModule<object, DatasetsArgs> = {
  command: 'datasets',
  describe: 'list the public datasets --public-dataset names, and which are cached',
  builder: (y) => y.option('json', { type: 'boolean', describe: 'one JSON object per dataset, one per line' }),
  handler: (args) => {
    const list = PUBLIC_DATASETS.map((d) => ({
      name: d.name,
      repo: `${d.host === 'github' ? 'github:' : ''}${d.repo}`,
      source: 'file' in d.data ? d.data.file : `${d.data.subset ?? 'default'}/${d.data.split}`,
      rows: d.size,
      exercises: d.exercises,
      cached: isCached(d),
      follows: d.follows,
    }));
    if (args.json === true) {
      process.stdout.write(list.map((d) => JSON.stringify(d)).join('\n') + '\n');
      return;
    }
    const rows = [['NAME', 'REPO', 'DATA', 'ROWS', 'CACHED', 'EXERCISES']];
    for (const d of list)
      rows.push([d.name, d.repo, d.source, d.rows === null ? '-' : String(d.rows), d.cached ? 'yes' : 'no', d.exercises]);
    process.stdout.write(`${table(rows)}\n`);
  },
};
