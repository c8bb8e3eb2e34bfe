#!/bin/bash
# Installs what is missing, builds the tests and runs them all: cpu, gui (under Xvfb) and gpu
# (skipped, with the reason, where there is no CUDA GPU). The test build targets fewer CUDA
# architectures than a release build (KC_TEST_CUDA_ARCHS, default 90: the H200) to stay fast.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="${KC_TEST_CUDA_ARCHS:-90}"
cmake --build build-test -j"$(nproc)"
cd build-test
if [ -n "${DISPLAY:-}" ]; then
  ctest --output-on-failure "$@"
else
  xvfb-run -a -s "-screen 0 1400x900x24" ctest --output-on-failure "$@"
fi
