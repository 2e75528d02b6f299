// `merge` input side (issue 18): each shard dir's exports read back and checked against the
// others (same config apart from host-local fields, same servebench version, same shard count),
// every shard index present once, and none failed, unless --allow-partial.
import fs from 'node:fs';
import path from 'node:path';
import { InvalidFileError, ShardMismatchError, ShardMissingError } from '../../errors.js';
import { PROFILE_JSON, RECORDS_JSONL } from '../../export/artifacts.js';
import type { ProfileExport, WallAnchor } from '../../export/json.js';
import { readRunExports } from '../../export/read-run.js';
import type { HistogramsJson } from '../../export/histograms.js';
import type { ShardSection } from '../single/shard-start.js';

export interface ShardInput {
  dir: string;
  index: number;
  profile: ProfileExport;
  histograms: HistogramsJson | null;
  section: ShardSection;
  anchor: WallAnchor;
}

export interface ShardSet {
  count: number;
  /** The shards merged, by index. */
  shards: ShardInput[];
  /** Shard indices absent, and shards (or dirs) left out as failed: only with --allow-partial. */
  missing: number[];
  failed: { dir: string; index: number | null; reason: string }[];
}

/** Config keys that differ between the hosts of one run (where it wrote, the mock's port, cores). */
const HOST_LOCAL = new Set(['artifact_dir', 'resolved_url', 'record_workers', 'ui']);

function comparable(config: unknown): Record<string, unknown> {
  const c = { ...(config as Record<string, unknown>) };
  for (const k of HOST_LOCAL) delete c[k];
  const shard = c.shard as Record<string, unknown> | null | undefined;
  if (shard && typeof shard === 'object') c.shard = { ...shard, index: null };
  return c;
}

function firstDifference(a: Record<string, unknown>, b: Record<string, unknown>): string | null {
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) return k;
  }
  return null;
}

function anchorOf(p: ProfileExport, dir: string): WallAnchor {
  const a = p.run?.wall_anchor as { monotonic_ns?: unknown; unix_ns?: unknown } | null | undefined;
  const int = (v: unknown) => (typeof v === 'number' || typeof v === 'string' || typeof v === 'bigint') && /^-?\d+$/.test(String(v));
  if (!a || !int(a.monotonic_ns) || !int(a.unix_ns)) throw new InvalidFileError(`${path.join(dir, PROFILE_JSON)}: no run.wall_anchor`);
  return { monotonic_ns: BigInt(String(a.monotonic_ns)), unix_ns: BigInt(String(a.unix_ns)) };
}

/** Why a shard's run does not count as complete, or null when it does. */
function failure(p: ProfileExport, dir: string): string | null {
  if (p.interrupted === true) return 'its run was interrupted';
  if (!fs.existsSync(path.join(dir, RECORDS_JSONL))) return `no ${RECORDS_JSONL} (run shards with --export-level records or raw)`;
  const c = p.counts;
  if (c.issued === 0) return 'it issued no request';
  if (c.succeeded === 0) return 'every request failed';
  return null;
}

export function readShards(dirs: readonly string[], allowPartial: boolean): ShardSet {
  const shards: ShardInput[] = [];
  const failed: ShardSet['failed'] = [];
  const leave = (dir: string, index: number | null, reason: string) => {
    const who = index === null ? dir : `shard ${index} (${dir})`;
    if (!allowPartial) throw new ShardMissingError(`merge: ${who}: ${reason}; give --allow-partial to merge the others`);
    failed.push({ dir, index, reason });
  };
  for (const dir of dirs) {
    if (!fs.existsSync(path.join(dir, PROFILE_JSON))) {
      leave(dir, null, `no ${PROFILE_JSON} (a missing or failed shard)`);
      continue;
    }
    const run = readRunExports(dir, { records: false });
    const section = run.profile.shard as ShardSection | undefined;
    if (!section || typeof section.index !== 'number' || typeof section.count !== 'number') {
      throw new InvalidFileError(
        `${path.join(dir, PROFILE_JSON)}: not a shard's export (run profile with --shard-index and --shard-count)`,
      );
    }
    const why = failure(run.profile, dir);
    if (why !== null) {
      leave(dir, section.index, why);
      continue;
    }
    shards.push({
      dir,
      index: section.index,
      profile: run.profile,
      histograms: run.histograms,
      section,
      anchor: anchorOf(run.profile, dir),
    });
  }
  if (shards.length === 0) throw new ShardMissingError('merge: no shard left to merge');
  shards.sort((a, b) => a.index - b.index);
  const ref = shards[0];
  const count = ref.section.count;
  for (const s of shards) {
    if (s.section.count !== count) throw new ShardMismatchError(`merge: ${s.dir} is a shard of ${s.section.count}, ${ref.dir} of ${count}`);
    const va = String(ref.profile.servebench_version);
    const vb = String(s.profile.servebench_version);
    if (va !== vb) throw new ShardMismatchError(`merge: ${s.dir} was run by servebench ${vb}, ${ref.dir} by ${va}`);
    const key = firstDifference(comparable(ref.profile.config), comparable(s.profile.config));
    if (key !== null) throw new ShardMismatchError(`merge: ${s.dir} and ${ref.dir} ran different configs (${key} differs)`);
  }
  for (let i = 1; i < shards.length; i++) {
    if (shards[i].index === shards[i - 1].index) {
      throw new ShardMismatchError(`merge: shard ${shards[i].index} given twice (${shards[i - 1].dir}, ${shards[i].dir})`);
    }
  }
  const present = new Set(shards.map((s) => s.index));
  const missing: number[] = [];
  for (let i = 0; i < count; i++) {
    if (present.has(i) || failed.some((f) => f.index === i)) continue;
    if (!allowPartial)
      throw new ShardMissingError(
        `merge: shard ${i} of ${count} is missing (no dir given holds it); give --allow-partial to merge the others`,
      );
    missing.push(i);
  }
  return { count, shards, missing, failed };
}
