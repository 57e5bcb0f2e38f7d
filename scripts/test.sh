#!/usr/bin/env bash
# Sets up, builds and runs every test. GPU tests skip with a reason when no CUDA device is present.
# Without a display the tests run on a private Xvfb display, so the windowed (GLFW) path is
# tested too.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup-debian.sh"
"$root/scripts/build.sh" -DPARTICLES_WERROR=ON
build=${BUILD_DIR:-$root/build}
jobs=$(nproc 2>/dev/null || echo 2)
ctest_cmd=(ctest --test-dir "$build" --output-on-failure -j "$jobs")
source "$root/scripts/display.sh"
use_private_display test.sh
"${ctest_cmd[@]}"
