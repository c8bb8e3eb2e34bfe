#!/bin/bash
# Installs the Debian packages that configuring, building, testing, packaging, sanitizing and fuzzing
# kcanvas need and are missing (nothing when all are present), on a Debian 12 that has nothing but
# its base: scripts/check-clean-root.sh proves it in a clean root on every CI run. A dependency
# added anywhere (CMakeLists.txt, a script, a test) goes into this list in the same commit.
# The CUDA toolkit is not a Debian package here: it is expected at /usr/local/cuda; without it
# kcanvas builds with the CPU backend only.
set -euo pipefail
packages=(cmake g++ pkg-config git                           # configure and build (git: the version's commit)
          libglfw3-dev libimgui-dev libstb-dev python3-glad libcli11-dev nlohmann-json3-dev libfmt-dev
          libegl-dev libgl-dev libpng-dev libjpeg62-turbo-dev libgif-dev # libraries kcanvas links
          libseccomp-dev                                              # the kernel sandbox's filter
          libgtest-dev xvfb xauth fonts-dejavu-core clang-format      # tests, the window under Xvfb, CI's format check
          libx11-dev                                                  # test_gui_idle clicks through X events
          xdg-user-dirs                                               # the Pictures folder (xdg-user-dir)
          help2man desktop-file-utils dpkg-dev file                   # the man page, the menu entry's check, the .deb
          clang libclang-rt-14-dev)                                   # scripts/fuzz.sh: libFuzzer
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
