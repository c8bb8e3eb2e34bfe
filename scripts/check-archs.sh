#!/bin/bash
# Compiles the CUDA kernels (the kc_gpu library) for every architecture a release build targets
# (CMakeLists.txt's default list, the one scripts/run.sh and scripts/package.sh build), because the
# test build compiles for the H200's sm_90 only. What only another architecture refuses, such as a
# __launch_bounds__ that asks more resident threads than its SMs hold, fails here, not on a user's
# machine. About a minute on 2 cores.
#   scripts/check-archs.sh [BUILD_DIR]   (default build-archs)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-archs}
mkdir -p "$dir"
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DKC_BUILD_TESTS=OFF -UCMAKE_CUDA_ARCHITECTURES > "$dir/configure.log" 2>&1 ||
  { cat "$dir/configure.log"; exit 1; }
grep -o 'CUDA .*, architectures [0-9;]*' "$dir/configure.log"
cmake --build "$dir" -j"$(nproc)" --target kc_gpu
