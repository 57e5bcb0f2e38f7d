#!/usr/bin/env bash
# Runs on the lent H200 (see scripts/h200-check.sh for the setting): the compositor's GPU tests,
# compute-sanitizer on its kernel tests, its benchmark against the raster renderer at the issue's
# sizes, and an ncu profile of its kernels. Prints the tables last; logs go to $OUT.
set -u
source "$(dirname "$0")/h200-env.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
date -u +"%Y-%m-%dT%H:%M:%SZ"
p=build/app/main/particles

[[ -z ${BENCH_ONLY:-} ]] && {
  # The suites the compositor's changes reach (the interop frame, the shader, the app and bench).
  # SUITES="..." names others (empty: the compositor's own alone).
  for t in ${SUITES-core_tests scene_tests render_tests cli_tests app_tests pipeline_tests \
           render_identity_tests}; do
    run_test $t
  done
  run_test composite_gpu_tests
  run_test composite_tests
  grep -E "Failure|FAILED" -A3 "$log"/composite*_tests.log | head -30
  grep -E "^  .*(cuda|cpu) " "$log/composite_tests.log" | sort | awk '!seen[$0]++' | head -60
  for tool in ${TOOLS:-memcheck racecheck synccheck initcheck}; do
    compute-sanitizer --tool $tool --error-exitcode 9 "$bin/composite_gpu_tests" \
      > "$log/$tool.log" 2>&1
    echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED' "$log/$tool.log" | tr '\n' ' ')"
  done
}
"$bin/composite_bench" --reps 100 > "$log/composite_bench.log" 2>&1
echo "composite_bench rc=$?"; cat "$log/composite_bench.log"
b() {  # name args...: one bench run, its table kept
  local name=$1; shift
  $p bench "$@" --out "$log/$name" > "$log/$name.log" 2>&1
  echo "== $name rc=$?"; grep -E '^\|' "$log/$name.log" | cut -c1-400
}
"$bin/interop_bench" scenes/galaxy.toml --frames 300 > "$log/interop_bench.log" 2>&1
echo "interop_bench rc=$?"; cat "$log/interop_bench.log"
all_scenes=$(ls scenes/*.toml | tr '\n' ',' | sed 's/,$//')
b bc_scenes --scenes "$all_scenes" --algorithms auto --counts 1048576 \
  --renderers raster,composite --frames 200 --warmup 30
b bc_1m --scenes scenes/galaxy.toml,scenes/fountain.toml --algorithms radix,auto \
  --counts 1048576 --renderers raster,composite --frames 600 --warmup 60
b bc_4k --scenes scenes/galaxy.toml --algorithms auto --counts 1048576 \
  --renderers raster,composite --size 3840x2160 --frames 300 --warmup 30
b bc_16m --scenes scenes/galaxy_dense.toml --algorithms radix,auto --renderers composite \
  --frames 300 --warmup 30
[[ -z ${SKIP_16M_RASTER:-} ]] && b bc_16m_raster --scenes scenes/galaxy_dense.toml --algorithms auto --renderers raster \
  --frames 60 --warmup 10
[[ -n ${NCU:-} ]] && ncu --clock-control none --launch-skip 300 --launch-count 12 \
  -k regex:'project|emit|tile_range|blend|Onesweep|Histogram|Scan' \
  --section SpeedOfLight --section LaunchStats --section Occupancy \
  $p --headless --frames 100 --algorithm auto > "$log/ncu.log" 2>&1
[[ -n ${NCU:-} ]] && grep -E "^  [a-z_]+.*\(|Duration|Memory Throughput|Compute \(SM\)|Registers Per|Achieved Occupancy|Block Size|Grid Size" "$log/ncu.log" | head -120
[[ -n ${NCU:-} ]] && ncu --clock-control none --launch-skip 40 --launch-count 1 -k regex:blend \
  --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
  --section MemoryWorkloadAnalysis $p --headless --frames 60 --algorithm auto \
  > "$log/ncu_blend.log" 2>&1
[[ -n ${NCU:-} ]] && grep -E "Stall|Warp Cycles|Issued|Eligible|No Eligible|Active Warps|Throughput|Hit Rate|Duration" "$log/ncu_blend.log" | head -60
cp "$log/bc_1m/chart.svg" "$out/chart_composite_1m.svg" 2>/dev/null
tar -czf "$out/results.tar.gz" -C "$out" logs && rm -rf "$log"
