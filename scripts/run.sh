#!/bin/bash
# Installs what is missing, builds kcanvas (Release, all default CUDA architectures) and starts it.
# Arguments are passed to kcanvas, e.g. scripts/run.sh --op blend --tutorial
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DKC_BUILD_TESTS=OFF
cmake --build build -j"$(nproc)"
exec ./build/kcanvas "$@"
