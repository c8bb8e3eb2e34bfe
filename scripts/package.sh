#!/bin/bash
# Builds the Debian package kcanvas_VERSION_ARCH.deb with CPack and prints its control fields.
#   scripts/package.sh              a Release build in build-package (CUDA with every default
#                                   architecture when a toolkit is found; KC_WITH_CUDA=OFF: CPU only)
#   scripts/package.sh BUILD_DIR    package a build folder as it is configured (CI: build-test)
# Install it with `sudo apt install ./build-package/kcanvas_*.deb`; scripts/check-package.sh tests one.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-package}
if [ ! -f "$build/CMakeCache.txt" ]; then
  scripts/install-deps.sh
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DKC_BUILD_TESTS=OFF -DKC_WITH_CUDA="${KC_WITH_CUDA:-ON}"
fi
cmake --build "$build" -j"$(nproc)"
rm -f "$build"/kcanvas_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/kcanvas_*.deb)
dpkg-deb --field "$deb" Package Version Architecture Depends Recommends Suggests Installed-Size
echo "$deb"
