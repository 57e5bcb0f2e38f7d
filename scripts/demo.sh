#!/usr/bin/env bash
# Sets up, builds and runs the default demo. With a display it opens a window; without one it
# renders headless and writes out/particles.png and out/frame_times.csv (asked for here: the
# binary writes files only when a flag names them). Arguments are passed to the particles
# binary (see --help); a --screenshot or --report among them replaces the demo's own, and a
# --record DIR asks for neither (a recording writes into DIR alone).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup-debian.sh"
"$root/scripts/build.sh"
cd "$root"
args=("$@")
headless=0
[[ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]] && headless=1
for a in "$@"; do [[ $a == --headless ]] && headless=1; done
# Not for `bench` or `soak`, which take their own --out.
given=" $* "
# Nor with --record DIR, which writes nothing outside DIR.
if ((headless)) && [[ ${1:-} != bench && ${1:-} != soak && $given != *" --record"* ]]; then
  [[ $given == *" --screenshot"* ]] || args+=(--screenshot out/particles.png)
  [[ $given == *" --report"* ]] || args+=(--report out/frame_times.csv)
fi
exec "${BUILD_DIR:-$root/build}/app/main/particles" "${args[@]}"
