#!/usr/bin/env bash
# Runs on the lent H200 (see /work/.library/device): every GPU test, compute-sanitizer on the
# pipeline tests, the headless demo on the CUDA backend, and the application benchmarks.
# Expects prebuilt binaries in .devrun/app (see scripts/h200-stage.sh) and the GL user-space
# .debs in .gl. Writes results.tar.gz and a few PNGs to $OUT; prints the tables last.
# QUICK=1 skips the sort library's own tests, sanitizers and benchmark (run them when cuda/sort
# changed) and the 16M demo.
set -u
source "$(dirname "$0")/h200-env.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$log/gpu.txt"
date -u +"%Y-%m-%dT%H:%M:%SZ" | tee "$log/date.txt"

step() { echo "== $*"; }

step tests
for t in core_tests scene_tests render_tests cli_tests app_tests pipeline_tests \
         render_identity_tests device_memory_tests sort_cpu_tests; do
  run_test "$t"
done
[[ -z ${QUICK:-} ]] && run_test sort_tests --gtest_filter="${SORT_FILTER:-*}"
grep -h "FAILED\|Failure" "$log"/*_tests.log | head -20

step sanitizers
# API errors are off: the pipeline probes for optional graph features (stage-timing event nodes)
# and falls back by design where they are refused; memory errors still count.
compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 "$bin/pipeline_tests" \
  --gtest_filter='Sanitized*:PipelineLifecycle*:Sizes/StageExtents*:Modes/StageKeys*:Sizes/StageFused*:StageFusedGather*:StageAutoProbe.*' \
  > "$log/memcheck.log" 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|PASSED' "$log/memcheck.log" | tr '\n' ' ')"
[[ -z ${QUICK:-} ]] && compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 "$bin/sort_tests" \
  --gtest_filter='SortOddEven.*:SortPartition.*:SortRadixShortcut.mid_EveryBucketSortPathIsExact:SortInterface.*:RadixRouteFixture.*:*nearly*_n4097*:*random*_n8193*:*few*_n16385*' \
  > "$log/memcheck_sort.log" 2>&1
echo "memcheck sort rc=$? $(grep -E 'ERROR SUMMARY|PASSED' "$log/memcheck_sort.log" | tr '\n' ' ')"
[[ -z ${QUICK:-} ]] && compute-sanitizer --tool racecheck --error-exitcode 9 "$bin/sort_tests" \
  --gtest_filter='SortOddEven.*:SortPartition.*:SortRadixShortcut.mid_EveryBucketSortPathIsExact:RadixRouteFixture.small_*:*nearly*_n4097*:*small_random_b0to32_n16385*:*large_random_b0to32_n524289*' \
  > "$log/racecheck_sort.log" 2>&1
echo "racecheck sort rc=$? $(grep -E 'RACECHECK SUMMARY|PASSED' "$log/racecheck_sort.log" | tr '\n' ' ')"
compute-sanitizer --tool racecheck --error-exitcode 9 "$bin/pipeline_tests" \
  --gtest_filter='Sanitized/PipelineSmall.*radix*:Sanitized/PipelineSmall.*auto*:Sizes/StageExtents.*/65537:Sizes/StageFused.*galaxy_n257:StageAutoProbe.*' \
  > "$log/racecheck.log" 2>&1
echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|PASSED' "$log/racecheck.log" | tr '\n' ' ')"

[[ -z ${QUICK:-} ]] && compute-sanitizer --tool initcheck --error-exitcode 9 "$bin/sort_tests" \
  --gtest_filter='SortPartition.*' > "$log/initcheck_sort.log" 2>&1
echo "initcheck sort rc=$? $(grep -E 'ERROR SUMMARY|PASSED' "$log/initcheck_sort.log" | tr '\n' ' ')"
compute-sanitizer --tool initcheck --error-exitcode 9 "$bin/pipeline_tests" \
  --gtest_filter='PipelineAutoCost.*:AllOrders/PipelineOrders.*:Sanitized/PipelineSmall.*auto*' \
  > "$log/initcheck.log" 2>&1
echo "initcheck rc=$? $(grep -E 'ERROR SUMMARY|PASSED' "$log/initcheck.log" | tr '\n' ' ')"
compute-sanitizer --tool synccheck --error-exitcode 9 "$bin/pipeline_tests" \
  --gtest_filter='Sanitized/PipelineSmall.*auto*' > "$log/synccheck.log" 2>&1
echo "synccheck rc=$? $(grep -E 'ERROR SUMMARY|PASSED' "$log/synccheck.log" | tr '\n' ' ')"

step demo
p=build/app/main/particles
$p --headless --frames 600 --screenshot "$out/h200_galaxy.png" --report "$log/galaxy_1m.csv" \
  > "$log/demo_galaxy.log" 2>&1
echo "demo galaxy rc=$?"; tail -9 "$log/demo_galaxy.log"
$p --headless --frames 300 --scene scenes/fountain.toml --algorithm auto \
  --screenshot "$out/h200_fountain.png" --report "$log/fountain_1m.csv" > "$log/demo_fountain.log" 2>&1
echo "demo fountain rc=$?"
[[ -z ${QUICK:-} ]] && $p --headless --frames 120 --count 16777216 --report "$log/galaxy_16m.csv" \
  > "$log/demo_galaxy_16m.log" 2>&1
echo "demo galaxy 16M rc=$?"; tail -9 "$log/demo_galaxy_16m.log"

step bench
$p bench --file bench/h200_verify.toml --out "$log/bench_verify" > "$log/bench_verify.log" 2>&1
echo "bench verify rc=$?"
$p bench --file bench/h200.toml --out "$log/bench_1m" > "$log/bench_1m.log" 2>&1
echo "bench 1m rc=$?"
$p bench --file bench/h200_16m.toml --out "$log/bench_16m" > "$log/bench_16m.log" 2>&1
echo "bench 16m rc=$?"
# The stages run apart: the per-stage breakdown that the fused default folds into "simulate".
$p bench --scenes scenes/galaxy.toml --algorithms radix,auto --counts 1048576,16777216 \
  --key-modes exact,quantized --frames 600 --warmup 60 --no-draw --no-fuse --stage-every 1 \
  --out "$log/bench_apart" > "$log/bench_apart.log" 2>&1
echo "bench apart rc=$?"
# MATRIX=1: auto against radix on every scene, count and key mode (issue 41, item 6); the bench
# prints the worst auto/radix ratio last.
if [[ -n ${MATRIX:-} ]]; then
  all_scenes=$(ls scenes/*.toml | tr '\n' ',' | sed 's/,$//')
  $p bench --no-draw --scenes "$all_scenes" --algorithms radix,auto \
    --counts 65536,262144,1048576,4194304,16777216 --key-modes exact,quantized --frames 150 \
    --warmup 30 --out "$log/bench_matrix" > "$log/bench_matrix.log" 2>&1
  echo "bench matrix rc=$?"; grep -iE "worst" "$log/bench_matrix.log"
fi
cp "$log/bench_1m/chart.svg" "$out/chart_1m.svg" 2>/dev/null
cp "$log/bench_16m/chart.svg" "$out/chart_16m.svg" 2>/dev/null
"$bin/extents_bench" > "$log/extents_bench.log" 2>&1
"$bin/switch_bench" scenes/galaxy.toml > "$log/switch_bench.log" 2>&1
echo "switch bench rc=$?"; cat "$log/switch_bench.log"
"$bin/interop_bench" scenes/galaxy.toml > "$log/interop_bench.log" 2>&1
echo "interop bench rc=$?"; cat "$log/interop_bench.log"
[[ -z ${QUICK:-} ]] && "$bin/sort_bench" --reps 15 > "$log/sort_bench.log" 2>&1

tar -czf "$out/results.tar.gz" -C "$out" logs && rm -rf "$log"
python3 - "$out/results.tar.gz" <<'PY'
import json, sys, tarfile
t = tarfile.open(sys.argv[1])
def js(name):
    return json.load(t.extractfile(name))
v = js("logs/bench_verify/summary.json")
bad = [r for r in v["runs"] if r["verify_failures"] or r["verified_frames"] != r["frames"]]
print("verify runs", len(v["runs"]), "frames verified", sum(r["verified_frames"] for r in v["runs"]),
      "failing runs", len(bad))
for name in ("logs/bench_1m/summary.json", "logs/bench_16m/summary.json",
             "logs/bench_apart/summary.json"):
    for r in js(name)["runs"]:
        st = r["stages"]
        tot = sum(st[k]["median_ms"] for k in st)
        print(f'{r["scene"][:7]:7} {r["count"]:>8} {r["algorithm"]:9} {r["key_mode"]:9} '
              f'{"fused" if r.get("fused_stages", True) else "apart"} '
              f'span {r["span"]["median_ms"]*1000:8.1f} us ({r["span"]["samples"]})  '
              f'stages {tot*1000:8.1f} us  sort {st["sort"]["median_ms"]*1000:7.1f} us  '
              + " ".join(f'{k[:3]} {st[k]["median_ms"]*1000:.1f}' for k in st) + '  '
              f'draw {r["draw"]["median_ms"]:.3f} ms ({r["draw"]["samples"]})  {r["sort_paths"]}')
PY
