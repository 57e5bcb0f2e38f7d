#!/usr/bin/env bash
# Sets up, builds and runs the default demo. With a display it opens a window; without one it
# renders headless and writes out/particles.png and out/frame_times.csv. Arguments are passed to
# the particles binary (see --help).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup-debian.sh"
"$root/scripts/build.sh"
cd "$root"
exec "${BUILD_DIR:-$root/build}/app/main/particles" "$@"
