#!/bin/bash
# Installs the Debian packages kcanvas needs that are missing (nothing when all are present).
# The CUDA toolkit is not a Debian package here: it is expected at /usr/local/cuda; without it
# kcanvas builds with the CPU backend only.
set -euo pipefail
packages=(cmake g++ pkg-config libglfw3-dev libimgui-dev libstb-dev python3-glad libgtest-dev
          libcli11-dev nlohmann-json3-dev libfmt-dev libegl-dev libgl-dev libpng-dev libjpeg62-turbo-dev
          xvfb xauth fonts-dejavu-core clang-format
          help2man desktop-file-utils dpkg-dev) # the man page, the menu entry's check, the .deb's Depends
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
[ -x /usr/local/cuda/bin/nvcc ] || command -v nvcc >/dev/null ||
  echo "note: no CUDA toolkit found (/usr/local/cuda): building the CPU backend only"
