#!/usr/bin/env bash
# Installs the Debian 12 packages the build, the demo and the tests need, skipping those that are
# already there. Uses sudo when not root. The CUDA toolkit is optional and not installed here:
# without nvcc the build has the CPU backend only.
# Usage: setup-debian.sh [PACKAGE ...]   (packages given: those, the same way; CI's extra tools)
set -euo pipefail

packages=(
  build-essential cmake pkg-config git python3 python3-glad
  libglfw3-dev libglm-dev libimgui-dev libstb-dev libcli11-dev libtomlplusplus-dev
  nlohmann-json3-dev libgtest-dev libegl-dev libgl-dev libopengl-dev libegl-mesa0 libgl1-mesa-dri
  xvfb xauth
)
if (($#)); then packages=("$@"); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}"
fi
