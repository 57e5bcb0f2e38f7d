#!/usr/bin/env bash
# CI's builds beyond scripts/test.sh (which .ci/run calls first), all host-only (CUDA off) and
# each in its own folder:
#   1. Debug (gcc): every test, with the assertions Release compiles out.
#   2. ASan + UBSan (gcc, -O1): every test; the first report fails its test (no recovery).
#      No leak is suppressed (Mesa's driver is kept loaded instead: see asan below).
#   3. libFuzzer (clang-16, ASan + UBSan): each target of fuzz/ runs $FUZZ_SECONDS (60) from its
#      seeds; a crash, leak, UB report, timeout or out-of-memory fails the script.
# STEPS="debug asan fuzz" picks steps; BUILD_ROOT (default build-ci) holds the build folders.
# Timings on a 2-core machine: docs/reliability.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
steps=${STEPS:-debug asan fuzz}
build_root=${BUILD_ROOT:-$root/build-ci}
fuzz_seconds=${FUZZ_SECONDS:-60}
jobs=$(nproc 2>/dev/null || echo 2)

# clang-16, its sanitizer runtimes (only recommended by clang-16) and libFuzzer, the way
# scripts/setup-debian.sh installs the rest.
"$root/scripts/setup-debian.sh"
if [[ " $steps " == *" fuzz "* ]]; then
  "$root/scripts/setup-debian.sh" clang-16 libclang-rt-16-dev libfuzzer-16-dev
fi

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache
                                          -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

# The sanitizers' settings for the build too: gtest_discover_tests runs each test binary.
export ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

source "$root/scripts/display.sh"
use_private_display ci-extra.sh

section() {
  echo "ci-extra: $1 ($(date -u +%H:%M:%S))"
}

# configure_and_test NAME CMAKE_ARGS...: builds every target into $build_root/NAME and runs ctest
# (with the environment in test_env).
test_env=()
configure_and_test() {
  local name=$1 dir=$build_root/$1
  shift
  section "$name: build"
  cmake -S "$root" -B "$dir" "${generator[@]}" "${launcher[@]}" -DPARTICLES_WITH_CUDA=OFF \
    -DPARTICLES_WERROR=ON "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
  section "$name: test"
  env "${test_env[@]}" ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

# Waits for the fuzzers in pids/names; prints each one's final line, or its log's tail when it
# found something (the input is in $dir/artifacts/NAME/).
wait_fuzzers() {
  local i
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then
      echo "fuzz_${names[$i]}: $(grep -E '^#[0-9]+[[:space:]]+DONE' "$dir/${names[$i]}.log" | tail -1)"
    else
      echo "fuzz_${names[$i]} FAILED; its log ends:" >&2
      tail -40 "$dir/${names[$i]}.log" >&2
      failed=1
    fi
  done
  pids=()
  names=()
}

for step in $steps; do
  start=$SECONDS
  case $step in
    debug)
      configure_and_test debug -DCMAKE_BUILD_TYPE=Debug
      ;;
    asan)
      # Mesa unloads its DRI driver (dlclose) when the last GL context goes, and LSan, no longer
      # seeing the pointers the driver's globals held, reports what they pointed to as leaks
      # from "<unknown module>" (5.3 KB in 255 strdup'ed strings per GL test, and more), which no
      # suppression can name. Loaded before the program (after libasan, which must come first),
      # the driver stays until exit, and those reports go away with no suppression at all.
      driver=/usr/lib/$(gcc -print-multiarch)/dri/swrast_dri.so
      test_env=()
      if [[ -f $driver ]]; then
        test_env=(LD_PRELOAD="$(gcc -print-file-name=libasan.so) $driver")
      fi
      CC=gcc CXX=g++ configure_and_test asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS=-O1 \
        -DCMAKE_CXX_FLAGS=-O1 -DPARTICLES_SANITIZE=address,undefined
      test_env=()
      ;;
    fuzz)
      dir=$build_root/fuzz
      section "fuzz: build"
      CC=clang-16 CXX=clang++-16 cmake -S "$root" -B "$dir" "${generator[@]}" "${launcher[@]}" \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPARTICLES_WITH_CUDA=OFF -DPARTICLES_WERROR=ON \
        -DPARTICLES_FUZZ=ON -DPARTICLES_SANITIZE=address,undefined >/dev/null
      targets=()
      while read -r name _; do targets+=("$name"); done <"$dir/fuzz/targets.txt"
      cmake --build "$dir" -j "$jobs" --target "${targets[@]/#/fuzz_}"
      section "fuzz: ${targets[*]}, ${fuzz_seconds} s each, $jobs at a time"
      pids=()
      names=()
      failed=0
      while read -r name seeds; do
        # A fresh corpus each run, from the shipped files the target names and its seeds/.
        corpus=$dir/corpus/$name
        rm -rf "$corpus" "$dir/artifacts/$name"
        mkdir -p "$corpus" "$dir/artifacts/$name"
        (cd "$root" && for glob in $seeds; do cp $glob "$corpus/"; done)
        if [[ -d $root/fuzz/seeds/$name ]]; then cp "$root/fuzz/seeds/$name"/* "$corpus/"; fi
        dict=()
        [[ -f $root/fuzz/$name.dict ]] && dict=(-dict="$root/fuzz/$name.dict")
        "$dir/fuzz/fuzz_$name" -max_total_time="$fuzz_seconds" -timeout=10 -rss_limit_mb=2048 \
          -print_final_stats=1 "${dict[@]}" -artifact_prefix="$dir/artifacts/$name/" "$corpus" \
          >"$dir/$name.log" 2>&1 &
        pids+=($!)
        names+=("$name")
        ((${#pids[@]} < jobs)) && continue
        wait_fuzzers
      done <"$dir/fuzz/targets.txt"
      wait_fuzzers
      ((failed == 0)) || exit 1
      ;;
    *)
      echo "ci-extra: unknown step '$step' (debug, asan, fuzz)" >&2
      exit 2
      ;;
  esac
  section "$step: done in $((SECONDS - start)) s"
done
