#!/usr/bin/env bash
# GPU telemetry check for a real NVIDIA host: builds servebench, samples the GPUs for 5 s with
# `servebench telemetry`, then runs a 20 s `profile` against the built-in mock with
# `--gpu-telemetry nvml`, and prints the inventory, the sample rate achieved, the power range and
# the energy counter delta against integrated power, per GPU.
#   scripts/gpu-check.sh            (from the repository root or anywhere)
# Environment: OUT=dir (results; default a temp dir), SERVEBENCH_NVML_LIBRARY=path (a
# libnvidia-ml.so.1 not on the loader path), GPU_CHECK_SKIP_BUILD=1 (use the existing build),
# GPU_CHECK_SECONDS=S (profile length, default 20).
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "gpu-check: $*" >&2; exit 1; }

# An NVIDIA driver: its NVML library on the loader path, or one named explicitly.
if [ -n "${SERVEBENCH_NVML_LIBRARY:-}" ]; then
  [ -f "$SERVEBENCH_NVML_LIBRARY" ] || die "SERVEBENCH_NVML_LIBRARY=$SERVEBENCH_NVML_LIBRARY does not exist"
elif ! { ldconfig -p 2>/dev/null | grep -q 'libnvidia-ml\.so\.1'; } && [ ! -e /proc/driver/nvidia/version ]; then
  die "no NVIDIA driver found (no libnvidia-ml.so.1 on the loader path, no /proc/driver/nvidia); this check needs a host with an NVIDIA GPU"
fi
command -v node >/dev/null || die "node is not installed"

OUT="${OUT:-$(mktemp -d -t servebench-gpu-check-XXXXXX)}"
mkdir -p "$OUT"
echo "== gpu-check: results in $OUT"
[ -e /proc/driver/nvidia/version ] && head -1 /proc/driver/nvidia/version
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=index,name,power.draw,power.limit --format=csv,noheader || true

if [ "${GPU_CHECK_SKIP_BUILD:-0}" != 1 ]; then
  echo "== build"
  if [ -d node_modules ]; then npm run build >"$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; die "build failed (see $OUT/build.log)"; }
  else npm ci >"$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; die "npm ci failed (see $OUT/build.log)"; }
  fi
fi

echo "== servebench telemetry --seconds 5 (inventory, sample rate, power range, counter vs integrated energy, poller CPU)"
node bin/servebench.js telemetry --seconds 5 --gpu-telemetry nvml | tee "$OUT/telemetry.txt"
grep -q '^GPU inventory:' "$OUT/telemetry.txt" || die "servebench telemetry found no GPU through NVML"

echo "== servebench profile (20 s against the built-in mock, --gpu-telemetry nvml)"
node bin/servebench.js profile --gpu-telemetry nvml --benchmark-duration "${GPU_CHECK_SECONDS:-20}" --warmup-request-count 16 --concurrency 16 \
  --ui none --artifact-dir "$OUT/profile" >"$OUT/profile.txt" 2>"$OUT/profile.err" || { cat "$OUT/profile.err"; die "profile failed"; }
grep -E 'GPU telemetry|GPU |NVML' "$OUT/profile.err" || true

node - "$OUT/profile" <<'JS'
const fs = require('fs');
const path = require('path');
const dir = process.argv[2];
const j = JSON.parse(fs.readFileSync(path.join(dir, 'profile_export.json'), 'utf8'));
const t = j.gpu_telemetry;
if (!t) { console.error('gpu-check: no gpu_telemetry section in profile_export.json'); process.exit(1); }
const f = (v, d = 1) => (v === null || v === undefined ? '-' : Number(v).toFixed(d));
const win = (Number(BigInt(t.window.end_ns) - BigInt(t.window.start_ns)) / 1e9);
console.log(`profiling window: ${f(win, 3)} s; poller: ${JSON.stringify(t.poller)}`);
const rows = fs.readFileSync(path.join(dir, 'gpu_telemetry.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
for (const g of t.gpus) {
  const s = rows.filter((r) => r.gpu === g.key);
  const span = s.length > 1 ? Number(BigInt(s[s.length - 1].t_ns) - BigInt(s[0].t_ns)) / 1e9 : NaN;
  const p = s.map((r) => r.power_w).filter((x) => x !== null);
  const diff = g.counter_energy_j && g.integrated_energy_j ? (100 * (g.counter_energy_j - g.integrated_energy_j)) / g.integrated_energy_j : null;
  console.log(`${g.key} ${g.name} (${g.uuid}, ${g.pci_bus_id}, limit ${f(g.power_limit_w)} W, driver ${g.driver_version})`);
  console.log(`  samples ${s.length}, rate ${f((s.length - 1) / span)} /s, power ${f(Math.min(...p))}..${f(Math.max(...p))} W (mean in window ${f(g.mean_power_w)})`);
  console.log(`  energy in window: counter ${f(g.counter_energy_j, 3)} J, integrated power ${f(g.integrated_energy_j, 3)} J, diff ${f(diff, 3)} %${g.failed ? `  FAILED: ${g.failed}` : ''}`);
}
for (const [k, v] of Object.entries(j.metrics)) if (k.startsWith('nvidia_')) console.log(`  ${k} = ${f(v.avg, 4)} ${v.unit}`);
JS
echo "== gpu-check: done ($OUT)"
