# Sourced by the scripts that run on the lent H200 (h200-check.sh, h200-composite.sh): sets out,
# log and bin, unpacks the GL user-space .debs from .gl and the staged binaries
# (scripts/h200-stage.sh, xz-compressed when they outgrow the 64 MiB that travels), and recreates
# the build-machine paths by which the tests name the binary and its data.
out=${OUT:-/tmp/out}
mkdir -p "$out/logs"
log=$out/logs
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
vendor=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[[ -f $vendor ]] && export __EGL_VENDOR_LIBRARY_FILENAMES=$vendor
bin=$PWD/.devrun/app
[[ -f .devrun/app.tar.xz && ! -d $bin ]] &&
  python3 -c 'import tarfile; tarfile.open(".devrun/app.tar.xz").extractall(".devrun")'
[[ -e /tmp/particles-h200-worktree ]] || ln -sfn "$PWD" /tmp/particles-h200-worktree
mkdir -p /tmp/particles-h200-build/app/main build/app/main
for d in /tmp/particles-h200-build/app/main build/app/main; do
  cp "$bin/particles" "$d/" && cp -r shaders scenes "$d/"
done

run_test() {  # name [gtest args...]: one test binary, its log kept, a line of its outcome
  local name=$1; shift
  "$bin/$name" "$@" > "$log/$name.log" 2>&1
  local rc=$?
  echo "$name rc=$rc $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$log/$name.log" | tr '\n' ' ')"
}
