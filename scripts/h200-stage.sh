#!/usr/bin/env bash
# Builds a committed revision (default HEAD) for sm_90 in a clean worktree and stages the
# binaries the H200 run needs in .devrun/app (ignored). Uncommitted edits are not included, so
# what runs on the GPU is exactly a commit. FROM_BUILD=DIR stages an existing Release build for
# sm_90 instead (faster; the caller vouches that it is built from the checked-out commit).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:-HEAD}
b=${FROM_BUILD:-/tmp/particles-h200-build}
if [[ -z ${FROM_BUILD:-} ]]; then
  wt=/tmp/particles-h200-worktree
  git -C "$root" worktree remove --force "$wt" 2>/dev/null || true
  git -C "$root" worktree add --detach "$wt" "$rev" >/dev/null
  cmake -S "$wt" -B "$b" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
  cmake --build "$b" -j "$(nproc)"
fi
dest=$root/.devrun/app
rm -rf "$dest" && mkdir -p "$dest"
cp $b/app/main/particles $b/tests/*_tests $b/bench/*_bench "$dest"/
git -C "$root" rev-parse "$rev" > "$dest/REVISION"
# What travels to the device is capped at 64 MiB: the binaries go compressed (the device scripts
# unpack .devrun/app.tar.xz when .devrun/app is absent).
rm -f "$root/.devrun/app.tar.xz"
tar -cJf "$root/.devrun/app.tar.xz" -C "$root/.devrun" app && rm -rf "$dest"
du -sh "$root/.devrun/app.tar.xz"
